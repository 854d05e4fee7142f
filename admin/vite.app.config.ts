import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/**
 * The capture app for booth staff (app.html → src/app/), served at /app by api/routes/appPages.ts. A build of its own
 * after the admin's, into the same admin/dist (the admin's build empties it first), so it shares no chunk with the
 * admin: plain React and the shared form renderer, no react-admin or MUI. Besides the page it writes:
 *
 *   app.webmanifest          the web app manifest (served at /app/manifest.webmanifest)
 *   app-icons/*.png          its icons, drawn here (served at /app/icons/…)
 *   app-sw.js                the service worker (served at /app/sw.js), with the list of this build's files to precache
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8')) as { version: string };

export const THEME_COLOR = '#2848c7';
export const BACKGROUND_LIGHT = '#f4f6fb';

function buildId(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  }
}

// ---- icons: a small PNG encoder (RGBA, no filter) and one drawing, so no binary is committed

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

/**
 * The icon: a badge (white card with a clip hole and two text lines) on the brand blue. `maskable` fills the whole
 * square and keeps the drawing inside the central 80 % safe zone; the plain one is a rounded square.
 */
export function drawIcon(size: number, maskable: boolean): Buffer {
  const px = new Uint8Array(size * size * 4);
  const [br, bg, bb] = hex(THEME_COLOR);
  const inset = maskable ? 0 : size * 0.04;
  const radius = maskable ? 0 : size * 0.22;
  const scale = maskable ? 0.72 : 0.86; // the badge's share of the square
  const inRounded = (x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  const c = size / 2;
  const bw = size * scale * 0.62;
  const bh = size * scale * 0.8;
  const bx0 = c - bw / 2;
  const by0 = c - bh / 2 + size * 0.03;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const px_ = x + 0.5;
      const py = y + 0.5;
      if (!inRounded(px_, py, inset, inset, size - inset, size - inset, radius)) continue; // transparent corner
      let col = [br, bg, bb];
      const onBadge = inRounded(px_, py, bx0, by0, bx0 + bw, by0 + bh, bw * 0.12);
      const hole = inRounded(px_, py, c - bw * 0.18, by0 + bh * 0.08, c + bw * 0.18, by0 + bh * 0.15, bh * 0.035);
      const avatar = (px_ - c) ** 2 + (py - (by0 + bh * 0.4)) ** 2 <= (bw * 0.2) ** 2;
      const line1 = inRounded(px_, py, bx0 + bw * 0.18, by0 + bh * 0.66, bx0 + bw * 0.82, by0 + bh * 0.73, bh * 0.035);
      const line2 = inRounded(px_, py, bx0 + bw * 0.28, by0 + bh * 0.8, bx0 + bw * 0.72, by0 + bh * 0.86, bh * 0.03);
      if (onBadge && !hole) col = avatar || line1 || line2 ? [br, bg, bb] : [255, 255, 255];
      px.set([col[0], col[1], col[2], 255], i);
    }
  }
  return encodePng(size, size, px);
}

// ---- the manifest and the service worker

export const ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
];

function manifest() {
  return {
    name: 'Leadstage Capture',
    short_name: 'Capture',
    description: 'Capture leads at your booth: badge scans, business cards and forms, online or offline.',
    id: '/app/',
    start_url: '/app/',
    scope: '/app/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_LIGHT,
    icons: ICONS.map((i) => ({ src: `/app/icons/${i.file}`, sizes: `${i.size}x${i.size}`, type: 'image/png', ...(i.maskable ? { purpose: 'maskable' } : { purpose: 'any' }) })),
  };
}

const captureAppFiles = (): Plugin => ({
  name: 'ls-capture-app-files',
  apply: 'build',
  generateBundle(_options, bundle) {
    for (const icon of ICONS) this.emitFile({ type: 'asset', fileName: `app-icons/${icon.file}`, source: drawIcon(icon.size, icon.maskable) });
    this.emitFile({ type: 'asset', fileName: 'app.webmanifest', source: JSON.stringify(manifest(), null, 2) });
    // Everything this build wrote under assets/ (scripts, styles, the barcode decoder's .wasm), plus the page,
    // the manifest and the icons at their served addresses.
    const assets = Object.keys(bundle)
      .filter((f) => f.startsWith('assets/'))
      .sort()
      .map((f) => `/${f}`);
    const precache = ['/app/', '/app/manifest.webmanifest', ...ICONS.map((i) => `/app/icons/${i.file}`), ...assets];
    const version = crypto.createHash('sha256').update(JSON.stringify(precache)).digest('hex').slice(0, 12);
    const source = fs
      .readFileSync(path.join(here, 'src', 'app', 'serviceWorker.js'), 'utf8')
      .replace("'__LS_VERSION__'", JSON.stringify(version))
      .replace('[/* __LS_PRECACHE__ */]', JSON.stringify(precache));
    this.emitFile({ type: 'asset', fileName: 'app-sw.js', source });
  },
});

/** The app's addresses (api/routes/appPages.ts answers app.html there): the same under `vite` dev. */
const appPagesInDev = (): Plugin => ({
  name: 'ls-capture-app-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/app(\/|$|\?)/.test(req.url) && !req.url.startsWith('/app.html')) req.url = '/app.html';
      next();
    });
  },
});

export default defineConfig({
  root: here,
  plugins: [react(), appPagesInDev(), captureAppFiles()],
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
    __APP_BUILD__: JSON.stringify(buildId()),
  },
  build: {
    outDir: process.env.CAPTURE_APP_OUT ?? path.join(here, 'dist'),
    emptyOutDir: Boolean(process.env.CAPTURE_APP_OUT),
    sourcemap: false,
    manifest: '.vite/app-manifest.json',
    rolldownOptions: {
      input: path.join(here, 'app.html'),
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]resources[\\/][^\\/]+\.ts$/.test(id) },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' } },
});
