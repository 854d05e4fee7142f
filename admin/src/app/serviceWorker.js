/* The capture app's service worker (scope /app/). admin/vite.app.config.ts fills in the version and the list of this
 * build's files, and writes it as app-sw.js; api/routes/appPages.ts serves it at /app/sw.js.
 *
 * - install: precaches the app shell: the page, the manifest, the icons and every hashed asset of the build (scripts,
 *   styles, the barcode decoder's .wasm), so the app opens and captures with no network at all.
 * - activate: removes the caches of older builds and takes over open pages.
 * - fetch: a navigation under /app/ goes to the network (so a new build shows as soon as it is online), and answers
 *   the cached page when the network fails or takes more than a few seconds; the precached assets come from the
 *   cache. Nothing else is touched: API calls (/api/…) are never cached here; the app keeps what it needs offline
 *   (the event picker, the events' forms, the unsent leads) in IndexedDB itself.
 */
const VERSION = '__LS_VERSION__';
const PRECACHE = [/* __LS_PRECACHE__ */];
const PREFIX = 'ls-capture-';
const CACHE = PREFIX + VERSION;
const SHELL = '/app/';
const NAVIGATION_TIMEOUT_MS = 4000;
const precached = new Set(PRECACHE);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload', credentials: 'same-origin' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function shellFromCache() {
  return caches.open(CACHE).then((cache) => cache.match(SHELL));
}

/** The network's page within the time limit, else the cached shell; a fresh page also refreshes the cached one. */
function navigate(request) {
  return new Promise((resolve) => {
    let settled = false;
    const fallback = () =>
      shellFromCache().then((cached) => {
        if (settled) return;
        if (cached) {
          settled = true;
          resolve(cached);
        }
      });
    const timer = setTimeout(fallback, NAVIGATION_TIMEOUT_MS);
    fetch(request)
      .then((response) => {
        clearTimeout(timer);
        if (response.ok && response.type === 'basic') {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(SHELL, copy));
        }
        if (!settled) {
          settled = true;
          resolve(response);
        }
      })
      .catch(() => {
        clearTimeout(timer);
        shellFromCache().then((cached) => {
          if (settled) return;
          settled = true;
          resolve(
            cached || new Response('You are offline and the app is not stored on this device yet.', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }),
          );
        });
      });
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/')) return; // never cached by the worker
  if (request.mode === 'navigate') {
    if (url.pathname === '/app' || url.pathname.startsWith('/app/')) event.respondWith(navigate(request));
    return;
  }
  if (precached.has(url.pathname)) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(url.pathname).then((hit) => hit || fetch(request))));
  }
});

self.addEventListener('message', (event) => {
  if (event.data === 'version') event.source?.postMessage({ type: 'version', version: VERSION });
});
