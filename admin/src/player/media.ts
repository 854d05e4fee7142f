import { mediaUrl } from './logic';
import type { Manifest } from './types';

/**
 * Where the media come from. When the account has a local media server (ls_local_server_url: `npm run media:sync`
 * keeps a copy of the assets on the venue's network and serves <local>/<as_id>?v=<as_version>) and it answers, the
 * player takes its media from there: the venue's uplink carries only the manifest. Else from this origin, through
 * the service worker's cache. The page's Content-Security-Policy names the local server's origin (see
 * api/routes/playerPages.ts); a server it cannot reach (a plain-http one from an https page, one that is down) just
 * does not answer here, and the origin serves.
 */

const PROBE_TIMEOUT_MS = 2500;

function timeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/**
 * Whether the local server has this manifest's media: the first image asset decodes from it (which proves the server
 * answers and has synced the files); without any image, whether <local>/health answers at all.
 */
export async function localServerAnswers(manifest: Manifest, base: string): Promise<boolean> {
  if (!/^https?:\/\//i.test(base)) return false;
  const firstImage = Object.values(manifest.assets).find((a) => a.kind === 'image');
  if (firstImage) {
    const img = new Image();
    img.src = mediaUrl(firstImage, base);
    return timeout(
      img.decode().then(() => true),
      PROBE_TIMEOUT_MS,
      false,
    );
  }
  const controller = new AbortController();
  const answered = fetch(`${base.replace(/\/+$/, '')}/health`, { mode: 'no-cors', cache: 'no-store', signal: controller.signal }).then(() => true);
  const ok = await timeout(answered, PROBE_TIMEOUT_MS, false);
  controller.abort();
  return ok;
}

/** The local server's base URL to use for a manifest (null: the origin), probed. */
export async function chooseMediaBase(manifest: Manifest): Promise<string | null> {
  const base = manifest.local_server_url;
  if (!base) return null;
  return (await localServerAnswers(manifest, base)) ? base : null;
}
