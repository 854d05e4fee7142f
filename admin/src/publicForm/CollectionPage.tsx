import { useEffect, useMemo, useRef, useState, type CSSProperties, type Ref } from 'react';
import { LanguageFooter, Logo, PublicFormPage, useStyleFonts } from './PublicFormPage';
import { SubmitFailure, type PublicFormData, type PublicSubmission } from './model';
import { loadCollection, submitDownloadForm, type CollectionAsset, type CollectionInfo } from './collection';
import { pageFailureText, RegisterError } from './register';
import { DATE_LOCALE, translator, type PublicLocale, type PublicTextKey, type PublicTranslate } from './texts';
import { RichText } from './RichText';

type Load = { kind: 'loading' } | { kind: 'failed'; key: PublicTextKey } | { kind: 'ready'; info: CollectionInfo };

/** A file size as people read it: 830 KB, 1.4 MB (decimal comma in Dutch). */
export function formatSize(bytes: number, locale: PublicLocale): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${new Intl.NumberFormat(DATE_LOCALE[locale], { maximumFractionDigits: i > 0 && n < 10 ? 1 : 0 }).format(n)} ${units[i]}`;
}

const KIND_BADGE: Record<CollectionAsset['kind'], string> = { image: 'IMG', video: 'VIDEO', audio: 'AUDIO', pdf: 'PDF', font: 'FONT', other: 'FILE' };

/** What the asset shows: the image or video itself, an audio player, or a thumbnail or type badge for the rest. */
function Media({ asset }: { asset: CollectionAsset }) {
  if (asset.kind === 'image' && asset.url) return <img className="ls-collection-image" src={asset.url} alt={asset.as_title} loading="lazy" />;
  if (asset.kind === 'video' && asset.url)
    return <video className="ls-collection-video" src={asset.url} poster={asset.thumbnail_url ?? undefined} controls preload="metadata" playsInline aria-label={asset.as_title} />;
  if (asset.thumbnail_url) return <img className="ls-collection-image" src={asset.thumbnail_url} alt="" loading="lazy" />;
  return (
    <span className="ls-collection-badge" aria-hidden="true">
      {KIND_BADGE[asset.kind]}
    </span>
  );
}

function AssetItem({ asset, t, locale }: { asset: CollectionAsset; t: PublicTranslate; locale: PublicLocale }) {
  const titleId = `ls-collection-item-${asset.as_id}`;
  return (
    <li className={`ls-collection-item ls-collection-item--${asset.kind}`} aria-labelledby={titleId}>
      <div className="ls-collection-media">
        <Media asset={asset} />
      </div>
      <div className="ls-collection-body">
        <h3 className="ls-collection-title" id={titleId}>
          {asset.as_title}
        </h3>
        <p className="ls-collection-meta">
          {t(`kind_${asset.kind}`)} · {formatSize(asset.as_size, locale)}
        </p>
        {asset.kind === 'audio' && asset.url ? <audio className="ls-collection-audio" src={asset.url} controls preload="none" aria-label={asset.as_title} /> : null}
        <div className="ls-collection-actions">
          {asset.download_url ? (
            <a className="ls-collection-download" href={asset.download_url} download>
              {t('download')}
              <span className="ls-public-sr"> {asset.as_title}</span>
            </a>
          ) : (
            <p className="ls-collection-locked">{t('download_locked')}</p>
          )}
          {asset.kind === 'pdf' && asset.url ? (
            <a className="ls-collection-open" href={asset.url} target="_blank" rel="noopener noreferrer">
              {t('open_file')}
              <span className="ls-public-sr">
                {' '}
                {asset.as_title} {t('new_window')}
              </span>
            </a>
          ) : null}
        </div>
      </div>
    </li>
  );
}

/** The collection's assets in order, each to view and (once unlocked) to download. */
function AssetList({ info, t, locale, headingRef }: { info: CollectionInfo; t: PublicTranslate; locale: PublicLocale; headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <section className="ls-collection" aria-labelledby="ls-collection-files">
      <h2 className="ls-collection-heading" id="ls-collection-files" tabIndex={-1} ref={headingRef}>
        {t('collection_files')}
      </h2>
      {info.assets.length ? (
        <ul className="ls-collection-list">
          {info.assets.map((a) => (
            <AssetItem key={a.as_id} asset={a} t={t} locale={locale} />
          ))}
        </ul>
      ) : (
        <p className="ls-public-notice">{t('collection_empty')}</p>
      )}
    </section>
  );
}

/** The open page: the collection's title (with the style's logo) and its assets; after the form, a thank-you. */
function CollectionView({ info, locale, onLocale, justUnlocked }: { info: CollectionInfo; locale: PublicLocale; onLocale: (l: PublicLocale) => void; justUnlocked: boolean }) {
  const t = translator(locale);
  const assetUrl = (id: string) => info.style_assets[id];
  const data = useMemo<PublicFormData>(() => ({ style: info.style, form: null }), [info.style]);
  const font = useStyleFonts(data, assetUrl);
  const heading = useRef<HTMLHeadingElement>(null);
  const title = info.collection.co_title || t('collection_title');
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    if (justUnlocked) heading.current?.focus();
  }, [justUnlocked]);
  const thanksTitle = info.style?.st_thanks_title?.trim() || t('downloads_ready');
  const thanksDescription = info.style?.st_thanks_description?.trim();
  return (
    <div className="ls-public ls-public--collection" style={font ? ({ '--ls-form-font': font } as CSSProperties) : undefined}>
      {info.stylesheet ? <link rel="stylesheet" href={info.stylesheet} data-ls-custom-css="" /> : null}
      <main className="ls-public-main">
        <section className="ls-public-card ls-collection-head" aria-labelledby="ls-public-collection-title">
          <Logo
            assetId={justUnlocked ? (info.style?.st_thanks_logo_assetid ?? info.style?.st_form_logo_assetid) : info.style?.st_form_logo_assetid}
            assetUrl={assetUrl}
            label={t('logo')}
          />
          <h1 id="ls-public-collection-title" className="ls-public-title">
            {title}
          </h1>
          {justUnlocked ? (
            <div className="ls-public-notice--state ls-collection-ready" role="status">
              <p className="ls-collection-ready-title">{thanksTitle}</p>
              <RichText html={thanksDescription} className="ls-public-description ls-public-richtext" />
            </div>
          ) : null}
        </section>
        <AssetList info={info} t={t} locale={locale} headingRef={heading} />
      </main>
      <LanguageFooter locale={locale} onLocale={onLocale} />
    </div>
  );
}

/**
 * A collection's public page /c/{co_token}?l={layerId}: its assets to view and download; when the showing layer names a
 * download form, that form first (in the layer's form style, like the registration page), then the downloads.
 */
export function CollectionPage({ token, layer, locale, onLocale }: { token: string; layer?: string; locale: PublicLocale; onLocale: (l: PublicLocale) => void }) {
  const t = translator(locale);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [justUnlocked, setJustUnlocked] = useState(false);

  useEffect(() => {
    let alive = true;
    loadCollection(token, layer).then(
      (info) => alive && setLoad({ kind: 'ready', info }),
      (e: unknown) => alive && setLoad({ kind: 'failed', key: e instanceof RegisterError && e.status === 404 ? 'not_found' : 'load_failed' }),
    );
    return () => {
      alive = false;
    };
  }, [token, layer]);

  const info = load.kind === 'ready' ? load.info : undefined;
  const data = useMemo<PublicFormData | undefined>(
    () =>
      info
        ? {
            style: info.style,
            form: info.form ? { elements: info.form.elements } : null,
            event: { ev_title: info.collection.co_title, ev_consent_text: info.event?.ev_consent_text ?? null },
          }
        : undefined,
    [info],
  );

  if (!info || !data) {
    const key: PublicTextKey = load.kind === 'failed' ? load.key : 'loading';
    return (
      <div className="ls-public">
        <p className="ls-public-status" role={key === 'loading' ? 'status' : 'alert'}>
          {t(key)}
        </p>
      </div>
    );
  }

  if (!info.locked || !info.form || !layer) return <CollectionView info={info} locale={locale} onLocale={onLocale} justUnlocked={justUnlocked} />;

  const submit = async (submission: PublicSubmission) => {
    let unlocked: CollectionInfo;
    try {
      await submitDownloadForm(token, layer, { ...submission, lang: locale });
      unlocked = await loadCollection(token, layer);
    } catch (e) {
      throw new SubmitFailure(pageFailureText(t, e, 'download_send_failed'), e instanceof RegisterError && e.code === 'lead_incomplete' ? e.fields : undefined);
    }
    setJustUnlocked(true);
    setLoad({ kind: 'ready', info: unlocked });
  };

  return (
    <PublicFormPage
      className="ls-public--collection"
      data={data}
      locale={locale}
      onLocale={onLocale}
      stylesheetHref={info.stylesheet ?? undefined}
      assetUrl={(id) => info.style_assets[id]}
      onSubmit={submit}
      submitLabel={t('download_submit')}
      replaceForm={
        info.can_submit ? undefined : (
          <p className="ls-public-notice ls-public-notice--state" role="status">
            {t('error_download_has_no_event')}
          </p>
        )
      }
    >
      <AssetList info={info} t={t} locale={locale} />
    </PublicFormPage>
  );
}
