import { previewPosition } from './logic';
import { hideMessage, showMessage } from './message';
import { Player } from './player';
import type { Manifest } from './types';

/**
 * The editor's live preview (/play/_preview/{accountId}/{carouselId}?slide={sl_id}&variant={v_name}), loaded in an
 * iframe of the console: the carousel's preview manifest (GET /api/1/accounts/{a}/carousels/{id}/manifest, with the
 * console's own session cookie), one slide shown still: no autoplay, no video playing, no events, no service worker,
 * no polling. The editor switches slides or reloads after a save with
 *   frame.contentWindow.postMessage({ type: 'leadstage-preview', slideId, variant?, reload: true }, origin)
 * from this origin only; the page answers { type: 'leadstage-preview-shown', slideId, variant } to its parent.
 */

export interface PreviewOptions {
  stage: HTMLElement;
  accountId: string;
  carouselId: string;
  slideId: string | null;
  variant: string | null;
}

export function startPreview(o: PreviewOptions): void {
  const url = `/api/1/accounts/${encodeURIComponent(o.accountId)}/carousels/${encodeURIComponent(o.carouselId)}/manifest`;
  const player = new Player({ stage: o.stage, preview: true, wantedVariant: o.variant, assetUrl: (m, id) => m.assets[id]?.url });
  let manifest: Manifest | null = null;
  let slideId = o.slideId;

  const load = async (): Promise<boolean> => {
    let res: Response;
    try {
      res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
    } catch {
      showMessage('offline');
      return false;
    }
    if (res.status === 401) showMessage('preview_sign_in');
    else if (!res.ok) showMessage('preview_not_found');
    else {
      manifest = (await res.json()) as Manifest;
      return true;
    }
    player.clear();
    return false;
  };

  const render = async () => {
    if (!manifest) return;
    const pos = previewPosition(manifest, slideId);
    if (!pos) {
      player.clear();
      showMessage('preview_empty');
      return;
    }
    const carousel = manifest.carousels[pos.carouselId];
    if (!carousel || !player.variantOf(carousel)) {
      player.clear();
      showMessage('preview_empty');
      return;
    }
    hideMessage();
    await player.showPreview(manifest, pos);
    if (window.parent !== window) {
      window.parent.postMessage({ type: 'leadstage-preview-shown', slideId: carousel.slides[pos.index].sl_id, variant: player.variantOf(carousel)?.v_name }, location.origin);
    }
  };

  window.addEventListener('message', (e) => {
    if (e.origin !== location.origin) return;
    const data = e.data as { type?: unknown; slideId?: unknown; variant?: unknown; reload?: unknown } | null;
    if (!data || data.type !== 'leadstage-preview') return;
    if (typeof data.slideId === 'string') slideId = data.slideId;
    if (typeof data.variant === 'string' || data.variant === null) player.setWantedVariant((data.variant as string | null) || null);
    void (async () => {
      if (data.reload === true && !(await load())) return;
      await render();
    })();
  });

  void load().then(async (ok) => {
    if (ok) await render();
  });
}
