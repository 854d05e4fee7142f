import { useEffect, useState } from 'react';
import { PublicFormPage } from './PublicFormPage';
import type { PublicFormData } from './model';
import { loadPreview, PreviewLoadError, previewRoute, stylesheetUrl, type PreviewRoute } from './preview';
import { registerEventId } from './register';
import { RegistrationPage } from './RegistrationPage';
import { CollectionPage } from './CollectionPage';
import { MeetPage } from './MeetPage';
import { meetEventId } from './meet';
import { collectionToken, layerOf } from './collection';
import { pickLocale, translator, type PublicLocale, type PublicTextKey } from './texts';
import './publicForm.css';

/** Shared with the admin (i18n/locale.ts), so the console's preview speaks the console's language. */
const LOCALE_STORE_KEY = 'RaStore.locale';

function storedLocale(): string | null {
  try {
    return localStorage.getItem(LOCALE_STORE_KEY);
  } catch {
    return null;
  }
}

const failureKey = (e: unknown): PublicTextKey => {
  const status = e instanceof PreviewLoadError ? e.status : 0;
  return status === 401 ? 'sign_in' : status === 403 ? 'no_access' : status === 404 ? 'not_found' : 'load_failed';
};

type State = { kind: 'loading' } | { kind: 'failed'; key: PublicTextKey } | { kind: 'ready'; data: PublicFormData };

function Status({ locale, text }: { locale: PublicLocale; text: PublicTextKey }) {
  return (
    <div className="ls-public">
      <p className="ls-public-status" role={text === 'loading' ? 'status' : 'alert'}>
        {translator(locale)(text)}
      </p>
    </div>
  );
}

function Preview({ route, locale, onLocale }: { route: PreviewRoute; locale: PublicLocale; onLocale: (l: PublicLocale) => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let alive = true;
    loadPreview(route).then(
      (data) => alive && setState({ kind: 'ready', data }),
      (e: unknown) => alive && setState({ kind: 'failed', key: failureKey(e) }),
    );
    return () => {
      alive = false;
    };
  }, [route]);
  if (state.kind === 'loading') return <Status locale={locale} text="loading" />;
  if (state.kind === 'failed') return <Status locale={locale} text={state.key} />;
  return (
    <PublicFormPage
      data={state.data}
      view={route.view}
      locale={locale}
      onLocale={onLocale}
      preview
      stylesheetHref={stylesheetUrl(route.accountId, route.styleId, route.version)}
      assetUrl={(id) => state.data.style_assets?.[id]}
    />
  );
}

/**
 * The public form entry (public-form.html): picks the page from the address: the console's preview of a form style
 * (/preview/form-styles/…), the registration page (/register/{eventId}), a collection's page (/c/{co_token}) or the
 * meeting page (/meet/{eventId}).
 */
export function PublicFormApp({ pathname, search }: { pathname: string; search: string }) {
  const [locale, setLocale] = useState<PublicLocale>(() =>
    pickLocale(search, storedLocale(), typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
  );
  const [route] = useState(() => previewRoute(pathname, search));
  const [eventId] = useState(() => registerEventId(pathname));
  const [collection] = useState(() => collectionToken(pathname));
  const [meetEvent] = useState(() => meetEventId(pathname));
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  if (eventId) return <RegistrationPage eventId={eventId} locale={locale} onLocale={setLocale} />;
  if (meetEvent) return <MeetPage eventId={meetEvent} locale={locale} onLocale={setLocale} />;
  if (collection) return <CollectionPage token={collection} layer={layerOf(search)} locale={locale} onLocale={setLocale} />;
  if (!route) return <Status locale={locale} text="not_found" />;
  return <Preview route={route} locale={locale} onLocale={setLocale} />;
}
