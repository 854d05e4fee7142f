import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseRange } from '../../api/storage/http.js';

/**
 * Local media sync (account-console.md: settings, "Local media sync"): keeps a folder on a show-floor machine equal
 * to the assets of a player code's group, so totems can take their media from the local network
 * (`ls_local_server_url`) instead of the internet.
 *
 * The folder holds each asset as `<as_id>` (its current version only), `index.json` (what is there: id, name, type,
 * size, SHA-256, version, and the manifest's ETag), and `.partial/` (downloads under way, named by asset and SHA-256,
 * so a cut download resumes with an HTTP Range and a changed asset never continues another one's bytes).
 *
 * One sync: GET /api/1/play/{code} once for the account id, then GET /api/1/accounts/{a}/sync/manifest with
 * X-Player-Code and If-None-Match (304: nothing to do, unless a file went missing); every asset whose SHA-256 or
 * version differs from the index is streamed to its partial file while hashed, checked (size and SHA-256: a mismatch
 * is refused and deleted, the old file stays), fsynced and renamed into place atomically; files the manifest no longer
 * lists are removed; the index is written last, atomically. The ETag is kept only when every download succeeded, so
 * the next sync retries what failed.
 */

export interface SyncAsset {
  as_id: string;
  as_name: string;
  as_title: string;
  as_type: string;
  as_size: number;
  as_sha256: string;
  as_version: number;
  url: string;
}

export interface SyncIndex {
  server: string;
  code: string;
  account_id: string;
  /** The sync manifest's ETag; null when the last sync left something to retry. */
  etag: string | null;
  synced_at: string;
  assets: SyncAsset[];
}

export interface SyncReport {
  /** not_modified: the server answered 304 and every file is there. */
  status: 'not_modified' | 'updated';
  downloaded: string[];
  /** Downloads that continued a partial file with a Range request. */
  resumed: string[];
  removed: string[];
  failed: { as_id: string; reason: string }[];
  kept: number;
}

export interface SyncOptions {
  /** The Leadstage server, e.g. https://leads.example.com */
  url: string;
  code: string;
  dir: string;
  /** Tests wrap it to watch or cut requests. */
  fetch?: typeof fetch;
  /** Downloads at a time. */
  concurrency?: number;
  log?: (line: string) => void;
}

export const INDEX_FILE = 'index.json';
export const PARTIAL_DIR = '.partial';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA_RE = /^[0-9a-f]{64}$/;

export class SyncError extends Error {}

export async function readIndex(dir: string): Promise<SyncIndex | undefined> {
  try {
    const index = JSON.parse(await fsp.readFile(path.join(dir, INDEX_FILE), 'utf8')) as SyncIndex;
    return Array.isArray(index.assets) ? index : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a file atomically: a temporary file beside it, fsynced, renamed over it. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const handle = await fsp.open(tmp, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, file);
}

const assetFile = (dir: string, id: string) => path.join(dir, id);
const partialFile = (dir: string, a: Pick<SyncAsset, 'as_id' | 'as_sha256'>) => path.join(dir, PARTIAL_DIR, `${a.as_id}.${a.as_sha256}.part`);

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return undefined;
  }
}

/** Only what a manifest row must be before its id and SHA-256 become file names. */
function checkedAssets(body: unknown): SyncAsset[] {
  const list = (body as { assets?: unknown })?.assets;
  if (!Array.isArray(list)) throw new SyncError('The server answered a sync manifest without assets');
  return list.map((a: SyncAsset) => {
    if (!UUID_RE.test(String(a.as_id)) || !SHA_RE.test(String(a.as_sha256)) || typeof a.url !== 'string' || !Number.isSafeInteger(Number(a.as_size))) {
      throw new SyncError(`The sync manifest has an asset this tool cannot keep: ${JSON.stringify(a).slice(0, 200)}`);
    }
    return { ...a, as_size: Number(a.as_size), as_version: Number(a.as_version) };
  });
}

/** The account of a player code (GET /api/1/play/{code}). */
export async function accountOfCode(o: Pick<SyncOptions, 'url' | 'code' | 'fetch'>): Promise<string> {
  const res = await (o.fetch ?? fetch)(new URL(`/api/1/play/${encodeURIComponent(o.code)}`, o.url), { headers: { Accept: 'application/json' } });
  if (res.status === 404) throw new SyncError(`The server does not know the player code ${o.code}`);
  if (!res.ok) throw new SyncError(`GET /api/1/play/${o.code} answered ${res.status}`);
  const body = (await res.json()) as { account_id?: unknown };
  if (typeof body.account_id !== 'string' || !UUID_RE.test(body.account_id)) throw new SyncError('The player manifest names no account');
  return body.account_id;
}

/** Streams `a` into its partial file (continuing it with a Range when part is there), checks it, renames it into place. */
async function download(o: SyncOptions, a: SyncAsset): Promise<{ resumed: boolean }> {
  const doFetch = o.fetch ?? fetch;
  const part = partialFile(o.dir, a);
  const url = new URL(a.url, o.url);
  let have = (await sizeOf(part)) ?? 0;
  if (have > a.as_size) {
    await fsp.rm(part, { force: true });
    have = 0;
  }
  // The URL names an immutable file (a replacement has a new file id), so a Range on it continues the same bytes.
  let res = await doFetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {} });
  let mode: 'write' | 'append' | 'complete' = 'write';
  if (have > 0 && res.status === 206 && new RegExp(`^bytes ${have}-`).test(res.headers.get('content-range') ?? '')) mode = 'append';
  else if (have > 0 && res.status === 416 && have === a.as_size) mode = 'complete';
  else if (have > 0 && res.status !== 200) {
    // a range the server will not continue: start over with the whole file
    await res.body?.cancel();
    res = await doFetch(url);
  }
  if (mode !== 'complete' && res.status !== 200 && mode !== 'append') {
    await res.body?.cancel();
    throw new SyncError(`GET ${a.url} answered ${res.status}`);
  }
  if (mode === 'complete') await res.body?.cancel();
  const hash = crypto.createHash('sha256');
  if (mode !== 'write') for await (const chunk of fs.createReadStream(part)) hash.update(chunk as Buffer);
  if (mode !== 'complete') {
    if (!res.body) throw new SyncError(`GET ${a.url} had no body`);
    // Each chunk is written before the next is read, so a cut connection leaves on disk all that arrived (a buffered
    // stream would drop its buffer on the error) and the next sync continues from there.
    const handle = await fsp.open(part, mode === 'append' ? 'a' : 'w');
    try {
      for await (const chunk of Readable.fromWeb(res.body as WebReadableStream)) {
        hash.update(chunk as Buffer);
        await handle.write(chunk as Buffer);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } else {
    // complete from an earlier run, which may have ended before its bytes reached the disk
    const handle = await fsp.open(part, 'r+');
    await handle.sync().finally(() => handle.close());
  }
  const size = await sizeOf(part);
  const sha = hash.digest('hex');
  if (size !== a.as_size || sha !== a.as_sha256) {
    await fsp.rm(part, { force: true });
    throw new SyncError(
      `${a.as_name}: the download does not match its SHA-256 (expected ${a.as_sha256.slice(0, 12)}…, got ${sha.slice(0, 12)}…, ${size} of ${a.as_size} bytes); refused`,
    );
  }
  await fsp.rename(part, assetFile(o.dir, a.as_id));
  return { resumed: mode !== 'write' };
}

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Is the folder's copy of `a` the current one? (same SHA-256 and version in the index, the file there at its size) */
async function isCurrent(dir: string, known: Map<string, SyncAsset>, a: SyncAsset): Promise<boolean> {
  const had = known.get(a.as_id);
  return Boolean(had && had.as_sha256 === a.as_sha256 && had.as_version === a.as_version && (await sizeOf(assetFile(dir, a.as_id))) === a.as_size);
}

/** One sync of the folder with the server (see the module's comment). */
export async function syncMedia(o: SyncOptions, accountId?: string): Promise<SyncReport & { index: SyncIndex }> {
  const doFetch = o.fetch ?? fetch;
  const log = o.log ?? (() => undefined);
  await fsp.mkdir(path.join(o.dir, PARTIAL_DIR), { recursive: true });
  const before = await readIndex(o.dir);
  const same = before && before.server === o.url && before.code === o.code;
  const account = accountId ?? (same ? before.account_id : await accountOfCode(o));
  const known = new Map((same ? before.assets : []).map((a) => [a.as_id, a]));
  const report: SyncReport = { status: 'updated', downloaded: [], resumed: [], removed: [], failed: [], kept: 0 };

  const ask = (etag?: string | null) =>
    doFetch(new URL(`/api/1/accounts/${account}/sync/manifest`, o.url), {
      headers: { Accept: 'application/json', 'X-Player-Code': o.code, ...(etag ? { 'If-None-Match': etag } : {}) },
    });
  let res = await ask(same ? before.etag : undefined);
  if (res.status === 304 && same) {
    const missing = [];
    for (const a of before.assets) if (!(await isCurrent(o.dir, known, a))) missing.push(a.as_id);
    if (!missing.length) return { ...report, status: 'not_modified', kept: before.assets.length, index: before };
    log(`${missing.length} file(s) missing from the folder: asking for the whole manifest`);
    res = await ask();
  }
  if (res.status === 404) throw new SyncError(`The server refused the player code ${o.code} for account ${account}`);
  if (!res.ok) throw new SyncError(`GET sync manifest answered ${res.status}`);
  const etag = res.headers.get('etag');
  const assets = checkedAssets(await res.json());

  const wanted: SyncAsset[] = [];
  for (const a of assets) {
    if (await isCurrent(o.dir, known, a)) report.kept++;
    else wanted.push(a);
  }
  const done = new Set<string>();
  await pool(wanted, o.concurrency ?? 3, async (a) => {
    try {
      const { resumed } = await download(o, a);
      report.downloaded.push(a.as_id);
      if (resumed) report.resumed.push(a.as_id);
      done.add(a.as_id);
      log(`${resumed ? 'resumed' : 'downloaded'} ${a.as_name} (v${a.as_version}, ${a.as_size} bytes)`);
    } catch (e) {
      report.failed.push({ as_id: a.as_id, reason: (e as Error).message });
      log(`failed ${a.as_name}: ${(e as Error).message}`);
    }
  });

  // What is listed now: the new downloads, the kept ones, and the old copy of an asset whose new version failed.
  const listed = new Set(assets.map((a) => a.as_id));
  const inFolder: SyncAsset[] = [];
  for (const a of assets) {
    if (done.has(a.as_id) || !wanted.includes(a)) inFolder.push(a);
    else if (known.has(a.as_id) && (await sizeOf(assetFile(o.dir, a.as_id))) !== undefined) inFolder.push(known.get(a.as_id)!);
  }
  for (const name of await fsp.readdir(o.dir)) {
    if (UUID_RE.test(name) && !listed.has(name)) {
      await fsp.rm(assetFile(o.dir, name), { force: true });
      report.removed.push(name);
      log(`removed ${name}`);
    }
  }
  // partial files of assets or contents no longer wanted
  const parts = new Set(wanted.filter((a) => !done.has(a.as_id)).map((a) => path.basename(partialFile(o.dir, a))));
  for (const name of await fsp.readdir(path.join(o.dir, PARTIAL_DIR))) if (!parts.has(name)) await fsp.rm(path.join(o.dir, PARTIAL_DIR, name), { force: true });

  const index: SyncIndex = { server: o.url, code: o.code, account_id: account, etag: report.failed.length ? null : etag, synced_at: new Date().toISOString(), assets: inFolder };
  await writeAtomic(path.join(o.dir, INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
  return { ...report, index };
}

/**
 * The player's local media server over a synced folder (`--serve`): the URL scheme the player uses is
 * `<ls_local_server_url>/health` and `<ls_local_server_url>/<as_id>?v=<as_version>`.
 *
 * - GET /health → 200 `{status, assets, synced_at, last_error}` (the player asks before it switches to this server).
 * - GET|HEAD /<as_id>[?v=<version>] → the file with its Content-Type, Content-Length, a strong ETag (its SHA-256),
 *   one byte range (206, 416), `immutable` caching when the version is named. A version other than the one in the
 *   folder is 404, never the other bytes: the player caches by URL forever and falls back to the main server.
 * - CORS: `Access-Control-Allow-Origin: *` on every answer (the player page is on the main server's origin); a
 *   preflight (OPTIONS) allows GET and HEAD with Range, and Chrome's private-network access.
 */
export interface MediaServer {
  url: string;
  port: number;
  /** Reads index.json again (after a sync). */
  reload(): Promise<void>;
  setLastError(message: string | null): void;
  close(): Promise<void>;
}

export async function startMediaServer(o: { dir: string; port?: number; host?: string }): Promise<MediaServer> {
  let index = await readIndex(o.dir);
  let byId = new Map((index?.assets ?? []).map((a) => [a.as_id, a]));
  let lastError: string | null = null;

  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges, ETag',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'X-Content-Type-Options': 'nosniff',
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { ...cors, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
        'Access-Control-Allow-Headers': 'Range, If-None-Match, If-Range',
        'Access-Control-Max-Age': '86400',
        ...(req.headers['access-control-request-private-network'] ? { 'Access-Control-Allow-Private-Network': 'true' } : {}),
      });
      return res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { code: 'method_not_allowed' }, { Allow: 'GET, HEAD, OPTIONS' });
    if (url.pathname === '/health') return answer(200, { status: 'ok', assets: byId.size, synced_at: index?.synced_at ?? null, last_error: lastError });
    const id = url.pathname.slice(1).toLowerCase();
    const a = byId.get(id);
    const v = url.searchParams.get('v');
    if (!a || (v !== null && v !== String(a.as_version))) return answer(404, { code: 'not_found' });
    const file = assetFile(o.dir, a.as_id);
    fs.stat(file, (err, st) => {
      if (err) return answer(404, { code: 'not_found' });
      const etag = `"${a.as_sha256}"`;
      const headers: Record<string, string> = {
        ...cors,
        'Content-Type': a.as_type,
        'Accept-Ranges': 'bytes',
        ETag: etag,
        'Cache-Control': v !== null ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
      const inm = req.headers['if-none-match'];
      if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
        res.writeHead(304, headers);
        return res.end();
      }
      const ifRange = req.headers['if-range'];
      let range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, st.size);
      if (range === 'unsatisfiable') {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${st.size}` });
        return res.end();
      }
      if (range && range.start === 0 && range.end === st.size - 1) range = null;
      if (range) {
        res.writeHead(206, { ...headers, 'Content-Range': `bytes ${range.start}-${range.end}/${st.size}`, 'Content-Length': String(range.end - range.start + 1) });
      } else res.writeHead(200, { ...headers, 'Content-Length': String(st.size) });
      if (req.method === 'HEAD') return res.end();
      // An open stream keeps reading the file it opened, even when a sync renames a new version over it.
      const stream = fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = !o.host || o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async reload() {
      index = await readIndex(o.dir);
      byId = new Map((index?.assets ?? []).map((a) => [a.as_id, a]));
    },
    setLastError(message) {
      lastError = message;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
