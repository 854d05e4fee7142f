import { forwardRef, memo } from 'react';
import Link from '@mui/material/Link';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { fitScale, type Size } from './geometry';
import { useOwnWidth } from '../layout/useOwnWidth';
import type { T } from './Canvas';

/** The live preview's room when it cannot be measured (jsdom). */
const FALLBACK_WIDTH = 280;
const MAX_HEIGHT = 420;

/** The address of the player's preview of a carousel at a slide, in a variant. */
export function previewUrl(accountId: string, carouselId: string, slideId: string | null, variantName: string | null): string {
  const q = new URLSearchParams();
  if (slideId) q.set('slide', slideId);
  if (variantName) q.set('variant', variantName);
  const query = q.toString();
  return `/play/_preview/${encodeURIComponent(accountId)}/${encodeURIComponent(carouselId)}${query ? `?${query}` : ''}`;
}

/**
 * The real player on the last saved state of the carousel, in the variant being edited: drawn at the variant's size and
 * scaled down to the panel, so it lays out as on the screen. The editor tells it what changed by postMessage.
 */
export const PreviewPanel = memo(
  forwardRef<HTMLIFrameElement, { src: string; size: Size; t: T }>(function PreviewPanel({ src, size, t }, ref) {
    const [width, setRef] = useOwnWidth();
    const room = Math.max(120, (width ?? FALLBACK_WIDTH + 26) - 26);
    const k = fitScale(size, { width: room, height: MAX_HEIGHT }, 1);
    return (
      <section className="ce-panel" aria-labelledby="ce-preview-heading" ref={setRef}>
        <div className="ce-panel-head">
          <h2 id="ce-preview-heading" className="ce-heading">
            {t('preview.title')}
          </h2>
          <Link href={src} target="_blank" rel="noopener" variant="body2" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            {t('preview.open')}
            <OpenInNewIcon sx={{ fontSize: 16 }} aria-hidden="true" />
          </Link>
        </div>
        <div className="ce-preview-box" style={{ width: Math.round(size.width * k), height: Math.round(size.height * k) }}>
          <iframe ref={ref} src={src} title={t('preview.frame')} data-testid="ce-preview" style={{ width: size.width, height: size.height, transform: `scale(${k})` }} />
        </div>
        <p className="ce-muted">{t('preview.hint')}</p>
      </section>
    );
  }),
);
