import { EventQueue, sendResultOf } from './eventQueue';
import { assetIdsOf, mediaUrl } from './logic';
import { chooseMediaBase } from './media';
import { Player } from './player';
import { showMessage, hideMessage } from './message';
import type { Manifest, PlayEvent } from './types';

/**
 * The player of a code (/play/{code}): loads the manifest, plays it, checks it every minute (?poll=<seconds> to change
 * that) with If-None-Match and hands a newer one to the player, which takes it over at a slide boundary; reports
 * events in batches (every 30 s, ?report=<seconds>, or at 50 waiting); keeps working offline through its service worker (/play/sw.js, scope /play/), which it tells the
 * URLs to keep.
 */

export interface LiveOptions {
  stage: HTMLElement;
  code: string;
  pollMs: number;
  reportMs: number;
  /** How often the status is reported (60 s). */
  statusMs?: number;
  wantedVariant: string | null;
}

type Load = { kind: 'manifest'; manifest: Manifest; etag: string | null } | { kind: 'unchanged' } | { kind: 'unknown' } | { kind: 'offline' } | { kind: 'error' };

async function loadManifest(code: string, etag: string | null): Promise<Load> {
  let res: Response;
  try {
    res = await fetch(`/api/1/play/${encodeURIComponent(code)}`, { cache: 'no-store', headers: etag ? { 'If-None-Match': etag } : {} });
  } catch {
    return { kind: 'offline' };
  }
  if (res.status === 304) return { kind: 'unchanged' };
  if (res.status === 404) return { kind: 'unknown' };
  if (res.status === 503 && res.headers.get('x-ls-offline')) return { kind: 'offline' };
  if (!res.ok) return { kind: 'error' };
  const newEtag = res.headers.get('etag');
  // Offline, the service worker may answer the cached manifest: the one already playing.
  if (etag && newEtag === etag) return { kind: 'unchanged' };
  try {
    return { kind: 'manifest', manifest: (await res.json()) as Manifest, etag: newEtag };
  } catch {
    return { kind: 'error' };
  }
}

function eventStore(code: string) {
  const storageKey = `ls-player-events:${code}`;
  return {
    load: (): PlayEvent[] => JSON.parse(localStorage.getItem(storageKey) ?? '[]'),
    save: (events: PlayEvent[]) => {
      if (events.length) localStorage.setItem(storageKey, JSON.stringify(events));
      else localStorage.removeItem(storageKey);
    },
  };
}

function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; a totem on plain http over the LAN still gets unique ids.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What the player says it is in its status reports (cc_player_version). */
export const PLAYER_VERSION = 'leadstage-player/1.1';

export function startLive(o: LiveOptions): void {
  const { stage, code } = o;
  const eventsUrl = `/api/1/play/${encodeURIComponent(code)}/events`;
  const store = eventStore(code);
  const queue = new EventQueue({
    ...store,
    newId,
    intervalMs: o.reportMs,
    now: () => new Date(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    async send(batch) {
      const res = await fetch(eventsUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ events: batch }),
        keepalive: batch.length <= 100,
      });
      return sendResultOf(res.status);
    },
  });

  let mediaBase: string | null = null;
  const toldPlayed = new Map<string, number>();
  const player = new Player({
    stage,
    preview: false,
    wantedVariant: o.wantedVariant,
    assetUrl: (m, id) => {
      const asset = m.assets[id];
      return asset ? mediaUrl(asset, mediaBase) : undefined;
    },
    report: (kind, carouselId, slideId) => queue.add(kind, carouselId, slideId),
    // What played gets a copy in the worker's cache (its origin URL), told at most every 10 minutes per URL.
    shown: (m, assetIds) => {
      const now = Date.now();
      const urls = assetIds.flatMap((id) => {
        const asset = m.assets[id];
        if (!asset) return [];
        return [asset.url, ...(asset.kind === 'video' && asset.thumbnail_url ? [asset.thumbnail_url] : [])]
          .map((u) => new URL(u, location.origin).href)
          .filter((u) => now - (toldPlayed.get(u) ?? 0) > 600_000);
      });
      if (!urls.length || !navigator.serviceWorker?.controller) return;
      for (const u of urls) toldPlayed.set(u, now);
      navigator.serviceWorker.controller.postMessage({ type: 'played', urls });
    },
  });

  let etag: string | null = null;
  let playing = false;

  const keepOffline = (manifest: Manifest) => {
    if (!('serviceWorker' in navigator)) return;
    // From the local server the media stay there; from the origin the worker keeps a copy of each.
    const urls = mediaBase
      ? []
      : assetIdsOf(manifest).flatMap((id) => {
          const a = manifest.assets[id];
          return [a.url, ...(a.kind === 'video' && a.thumbnail_url ? [a.thumbnail_url] : [])].map((u) => new URL(u, location.origin).href);
        });
    stage.dataset.cached = `0/${urls.length}`;
    void navigator.serviceWorker.ready.then((reg) => {
      reg.active?.postMessage({ type: 'keep', code, page: location.pathname, manifest: `/api/1/play/${encodeURIComponent(code)}`, urls });
    });
  };

  const apply = async (manifest: Manifest) => {
    mediaBase = await chooseMediaBase(manifest);
    stage.dataset.media = mediaBase ? 'local' : 'origin';
    keepOffline(manifest);
    if (!playing) {
      playing = await player.start(manifest);
      if (playing) hideMessage();
      else showMessage('empty');
    } else player.update(manifest);
  };

  const check = async () => {
    const load = await loadManifest(code, etag);
    if (load.kind === 'manifest') {
      etag = load.etag;
      stage.dataset.etag = etag ?? '';
      await apply(load.manifest);
    } else if (load.kind === 'unknown') {
      etag = null;
      playing = false;
      player.clear();
      queue.stop();
      showMessage('unknown_code');
    } else if (!playing && load.kind !== 'unchanged') showMessage(load.kind === 'offline' ? 'offline' : 'error');
  };

  const poll = async () => {
    await check().catch(() => undefined);
    // Dayparting: a window may have opened or closed since the last look.
    player.reschedule();
    setTimeout(poll, o.pollMs);
  };

  // Display status (platform-and-flows.md 7): every 60 s, the version, the screen, since when and the last error.
  const onlineSince = new Date().toISOString();
  let lastError: string | null = null;
  window.addEventListener('error', (e) => (lastError = String(e.message || 'error').slice(0, 500)));
  window.addEventListener('unhandledrejection', (e) => (lastError = String((e.reason as Error)?.message ?? e.reason ?? 'error').slice(0, 500)));
  const status = async () => {
    try {
      await fetch(`/api/1/play/${encodeURIComponent(code)}/status`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          version: PLAYER_VERSION,
          width: window.screen?.width || window.innerWidth,
          height: window.screen?.height || window.innerHeight,
          online_since: onlineSince,
          last_error: lastError,
        }),
      });
    } catch {
      // offline: the next report says it
    }
  };
  const reportStatus = () => {
    void status();
    setTimeout(reportStatus, o.statusMs ?? 60_000);
  };

  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    navigator.serviceWorker.addEventListener('message', (e) => {
      const data = e.data as { type?: string; code?: string; cached?: number; total?: number } | null;
      if (data?.type === 'kept' && data.code === code) stage.dataset.cached = `${data.cached}/${data.total}`;
    });
    navigator.serviceWorker.register('/play/sw.js', { scope: '/play/' }).catch(() => undefined);
  }

  queue.start();
  window.addEventListener('online', () => void queue.flush());
  // Leaving (a reload, the screen switched off): one last try. The events stay until a normal send confirms them,
  // and a copy the server already has counts once.
  window.addEventListener('pagehide', () => {
    const pending = queue.pending().slice(0, 100);
    if (pending.length && navigator.sendBeacon) navigator.sendBeacon(eventsUrl, new Blob([JSON.stringify({ events: pending })], { type: 'application/json' }));
  });
  void poll();
  reportStatus();
}
