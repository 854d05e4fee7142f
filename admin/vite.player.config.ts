import { defineConfig, type Plugin } from 'vite';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The totem player (player.html → src/player/), served at /play/{code} by api/routes/playerPages.ts. A build of its
 * own after the admin's, into the same admin/dist (the admin's build empties it first), sharing no chunk with anything:
 * plain TypeScript and the DOM, the `qrcode` package's core encoder, no React, react-admin or MUI; at most 120 KB of
 * gzipped JavaScript (test/unit/playerBundle.test.ts). Besides the page it writes player-sw.js, the service worker
 * (served at /play/sw.js) with the list of this build's files to precache.
 */
const here = path.dirname(fileURLToPath(import.meta.url));

const playerServiceWorker = (): Plugin => ({
  name: 'ls-player-service-worker',
  apply: 'build',
  generateBundle(_options, bundle) {
    // Everything this build wrote under assets/ (its script and stylesheet), at their served addresses.
    const precache = Object.keys(bundle)
      .filter((f) => f.startsWith('assets/'))
      .sort()
      .map((f) => `/${f}`);
    const version = crypto.createHash('sha256').update(JSON.stringify(precache)).digest('hex').slice(0, 12);
    const source = fs
      .readFileSync(path.join(here, 'src', 'player', 'serviceWorker.js'), 'utf8')
      .replace("'__LS_VERSION__'", JSON.stringify(version))
      .replace('[/* __LS_PRECACHE__ */]', JSON.stringify(precache));
    this.emitFile({ type: 'asset', fileName: 'player-sw.js', source });
  },
});

/** The player's addresses answer player.html under `vite` dev too. */
const playerPagesInDev = (): Plugin => ({
  name: 'ls-player-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/play\/[^/]/.test(req.url) && !req.url.startsWith('/play/sw.js')) req.url = '/player.html';
      next();
    });
  },
});

export default defineConfig({
  root: here,
  plugins: [playerPagesInDev(), playerServiceWorker()],
  build: {
    outDir: process.env.PLAYER_OUT ?? path.join(here, 'dist'),
    emptyOutDir: Boolean(process.env.PLAYER_OUT),
    sourcemap: false,
    manifest: '.vite/player-manifest.json',
    // The player runs on whatever browser a totem has; ES2020 keeps it loading on older kiosk Chromium builds.
    target: 'es2020',
    rolldownOptions: {
      input: path.join(here, 'player.html'),
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' } },
});
