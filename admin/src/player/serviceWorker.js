/* The player's service worker (scope /play/). admin/vite.player.config.ts fills in the version and the list of this
 * build's files and writes it as player-sw.js; api/routes/playerPages.ts serves it at /play/sw.js.
 *
 * What keeps a totem playing with the network cut, a reload included:
 * - install: precaches the player's own files (hashed scripts and styles of this build).
 * - a player page (/play/{code}) is fetched from the network (a new build or CSP shows at once) and its copy kept;
 *   the copy answers when the network fails or is slower than a few seconds. An unknown code's 404 is passed on.
 * - the manifest (GET /api/1/play/{code}): network first, the last good copy when the network fails (a 304 when the
 *   player already has it); a 404 removes the copy.
 * - media (/storage/… URLs carry their version, so one URL never changes): cache first. The page names the URLs its
 *   manifest needs ({type: 'keep', code, page, manifest, urls}); the worker downloads those it lacks, one at a time,
 *   answers {type: 'kept', code, cached, total}, and drops media no player on this device needs any more. Range
 *   requests (video) are answered from the cached file.
 * - media that played ({type: 'played', urls}: the origin URLs of what a slide showed, whichever server it came
 *   from) get a copy in a cache of their own, within a budget (PLAYED_BUDGET_BYTES, at most half of what
 *   navigator.storage.estimate() allows), the least recently played evicted first. With the local media server and
 *   the internet both down, the player falls back to the origin URL and this copy answers.
 * The editor's preview (/play/_preview/…) is left alone, and so is everything else (other /api calls, POSTs).
 */
const VERSION = '__LS_VERSION__';
const PRECACHE = [/* __LS_PRECACHE__ */];
const SHELL = 'ls-player-shell-' + VERSION;
const DATA = 'ls-player-data';
const MEDIA = 'ls-player-media';
const PLAYED = 'ls-player-played';
const PLAYED_INDEX = '/play/__played__';
const PLAYED_BUDGET_BYTES = 500 * 1024 * 1024;
const KEEP_PREFIX = '/play/__keep__/';
const NETWORK_TIMEOUT_MS = 5000;
const precached = new Set(PRECACHE);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('ls-player-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const isPlayerPage = (path) => /^\/play\/[^/_][^/]*\/?$/.test(path) && path !== '/play/sw.js';
const isManifest = (path) => /^\/api\/1\/play\/[^/]+$/.test(path);

/** The network's answer within the time limit, or undefined (failed or too slow). */
function network(request) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), NETWORK_TIMEOUT_MS);
    fetch(request)
      .then((response) => {
        clearTimeout(timer);
        resolve(response);
      })
      .catch(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
  });
}

const offline = () =>
  new Response(JSON.stringify({ code: 'offline', message: 'No network, and nothing stored on this device' }), {
    status: 503,
    headers: { 'Content-Type': 'application/json', 'X-LS-Offline': '1' },
  });

/**
 * A page or a manifest: the network's, kept when good; the kept copy when the network fails or the server has trouble
 * (5xx: a database restart must not blank a totem). A 404 is the truth (the code is gone): passed on, the copy dropped.
 */
async function networkFirst(request, key) {
  const data = await caches.open(DATA);
  const response = await network(request);
  if (response && response.status < 500) {
    if (response.status === 200) await data.put(key, response.clone());
    else if (response.status === 404) await data.delete(key);
    return response;
  }
  const kept = await data.match(key);
  if (!kept && response) return response;
  if (!kept)
    return request.mode === 'navigate'
      ? new Response('This player is offline and not stored on this screen yet.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
      : offline();
  const tag = request.headers.get('if-none-match');
  if (tag && tag === kept.headers.get('etag')) return new Response(null, { status: 304, headers: { ETag: tag } });
  return kept;
}

// ---- media

let keepSet = null;

/** Every media URL some player on this device asked to keep. */
function wanted() {
  if (!keepSet) {
    keepSet = caches.open(DATA).then(async (data) => {
      const all = new Set();
      for (const request of await data.keys()) {
        if (!new URL(request.url).pathname.startsWith(KEEP_PREFIX)) continue;
        const response = await data.match(request);
        for (const url of (await response.json()) || []) all.add(url);
      }
      return all;
    });
  }
  return keepSet;
}

const downloads = new Map();

/** Downloads a whole media file into the cache once (concurrent asks share it); the cached answer, or undefined. */
function download(url) {
  if (!downloads.has(url)) {
    const job = (async () => {
      const cache = await caches.open(MEDIA);
      try {
        const response = await fetch(url, { credentials: 'same-origin' });
        if (response.status !== 200) return undefined;
        await cache.put(url, response);
        return cache.match(url);
      } catch {
        return undefined;
      }
    })();
    downloads.set(url, job);
    job.finally(() => downloads.delete(url));
  }
  return downloads.get(url).then((r) => (r ? r.clone() : undefined));
}

/** A cached file as the request asks for it: whole, or the byte range a video element asks for. */
async function ranged(request, response) {
  const range = request.headers.get('range');
  if (!range) return response;
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  const blob = await response.blob();
  const size = blob.size;
  let start = match && match[1] ? Number(match[1]) : NaN;
  let end = match && match[2] ? Number(match[2]) : size - 1;
  if (match && !match[1] && match[2]) {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  }
  if (!match || !(start >= 0) || start >= size || end < start) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  }
  end = Math.min(end, size - 1);
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    statusText: 'Partial Content',
    headers: {
      'Content-Type': response.headers.get('content-type') || 'application/octet-stream',
      'Content-Range': `bytes ${start}-${end}/${size}`,
      'Content-Length': String(end - start + 1),
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  });
}

async function media(request) {
  const cache = await caches.open(MEDIA);
  let hit = await cache.match(request.url);
  // a copy of what played (the URL carries the version: it never changes)
  if (!hit) hit = await (await caches.open(PLAYED)).match(request.url);
  if (!hit && (await wanted()).has(request.url)) hit = await download(request.url);
  if (hit) return ranged(request, hit);
  return fetch(request);
}

// ---- what played: {url: {at: last played (ms), size: bytes}}, kept in DATA so it survives the worker's restarts

let playedIndex = null;
let playedWork = Promise.resolve();

async function loadPlayed() {
  if (!playedIndex) {
    const kept = await (await caches.open(DATA)).match(PLAYED_INDEX);
    playedIndex = kept ? await kept.json().catch(() => ({})) : {};
  }
  return playedIndex;
}

async function savePlayed() {
  await (await caches.open(DATA)).put(PLAYED_INDEX, new Response(JSON.stringify(playedIndex), { headers: { 'Content-Type': 'application/json' } }));
}

/** The budget of the played copies: PLAYED_BUDGET_BYTES, or half of the storage this origin may use when that is less. */
async function playedBudget() {
  try {
    const { quota } = await self.navigator.storage.estimate();
    if (quota) return Math.min(PLAYED_BUDGET_BYTES, Math.floor(quota / 2));
  } catch {
    /* no estimate: the fixed budget */
  }
  return PLAYED_BUDGET_BYTES;
}

/** Notes that media played; copies those not stored yet (from the media cache, else the origin); evicts over budget. */
function played(urls) {
  playedWork = playedWork.then(async () => {
    const index = await loadPlayed();
    const cache = await caches.open(PLAYED);
    const now = Date.now();
    for (const url of urls) {
      if (index[url] && (await cache.match(url))) {
        index[url].at = now;
        continue;
      }
      let response = await (await caches.open(MEDIA)).match(url);
      if (!response) {
        try {
          response = await fetch(url, { credentials: 'same-origin' });
        } catch {
          response = undefined; // the origin is down too: copied when it plays again with the origin up
        }
      }
      if (!response || response.status !== 200) continue;
      const blob = await response.blob();
      await cache.put(url, new Response(blob, { headers: { 'Content-Type': response.headers.get('content-type') || 'application/octet-stream' } }));
      index[url] = { at: now, size: blob.size };
    }
    const budget = await playedBudget();
    const byAge = Object.entries(index).sort((x, y) => x[1].at - y[1].at);
    let total = byAge.reduce((sum, [, v]) => sum + (v.size || 0), 0);
    for (const [url, v] of byAge) {
      if (total <= budget) break;
      await cache.delete(url);
      delete index[url];
      total -= v.size || 0;
    }
    await savePlayed();
  });
  playedWork = playedWork.catch(() => undefined);
  return playedWork;
}

async function keep(message, client) {
  const { code, page, manifest } = message;
  if (typeof code !== 'string' || !Array.isArray(message.urls)) return;
  // Only this origin's stored media are served from the cache, so only those are kept.
  const urls = message.urls.filter((u) => typeof u === 'string' && u.startsWith(self.location.origin + '/storage/'));
  const data = await caches.open(DATA);
  await data.put(KEEP_PREFIX + encodeURIComponent(code), new Response(JSON.stringify(urls), { headers: { 'Content-Type': 'application/json' } }));
  keepSet = null;
  // The first load ran before this worker controlled the page: its page and manifest were not kept then.
  for (const url of [page, manifest]) {
    if (typeof url !== 'string' || (await data.match(url))) continue;
    try {
      const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
      if (response.status === 200) await data.put(url, response);
    } catch {
      /* offline: kept on a later visit */
    }
  }
  const cache = await caches.open(MEDIA);
  let cached = 0;
  const report = () => client && client.postMessage({ type: 'kept', code, cached, total: urls.length });
  for (const url of urls) {
    if ((await cache.match(url)) || (await download(url))) cached++;
    report();
  }
  report();
  // Media no player here needs any more (replaced files have new URLs) go.
  const all = await wanted();
  for (const request of await cache.keys()) if (!all.has(request.url)) await cache.delete(request);
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'keep') event.waitUntil(keep(data, event.source));
  else if (data && data.type === 'played' && Array.isArray(data.urls))
    event.waitUntil(played(data.urls.filter((u) => typeof u === 'string' && u.startsWith(self.location.origin + '/storage/')).slice(0, 50)));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (isPlayerPage(url.pathname)) event.respondWith(networkFirst(request, url.pathname));
    return;
  }
  if (isManifest(url.pathname)) event.respondWith(networkFirst(request, url.pathname));
  else if (url.pathname.startsWith('/storage/')) event.respondWith(media(request));
  else if (precached.has(url.pathname)) event.respondWith(caches.open(SHELL).then((cache) => cache.match(url.pathname).then((hit) => hit || fetch(request))));
});
