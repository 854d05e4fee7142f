// gzip by zopfli (@gfx/zopfli: Google's deflate encoder in WebAssembly, standard gzip about 3% smaller than zlib's
// level 9) for the admin build's precompressed copies (admin/vite.config.ts, precompressAssets), on a pool of worker
// threads (one per core) and with a cache of earlier results by content: zopfli takes about a second per 100 KB, and
// most chunks (react, MUI, react-admin) come out of a rebuild byte for byte the same.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const OPTIONS = { numiterations: 5 };
/** node_modules/.cache, where build tools keep what they can compute again; entries unused for 30 days are removed. */
export const CACHE_DIR = path.join(here, '..', '..', 'node_modules', '.cache', 'leadstage-zopfli');
const KEEP_MS = 30 * 24 * 3600 * 1000;

/** The name of a buffer's result in the cache: its content and zopfli's options. */
export const cacheKeyOf = (raw) => crypto.createHash('sha256').update(JSON.stringify(OPTIONS)).update(raw).digest('hex');

/** The zopfli gzip of each buffer, in order. */
export async function zopfliAll(buffers) {
  // The cache is a help, not a need: where it cannot be written (a read-only node_modules) every chunk is compressed.
  let cache = true;
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
  } catch {
    cache = false;
  }
  const keys = buffers.map(cacheKeyOf);
  const out = new Array(buffers.length);
  const todo = [];
  keys.forEach((key, i) => {
    const file = path.join(CACHE_DIR, `${key}.gz`);
    try {
      out[i] = fs.readFileSync(file);
      const now = new Date();
      fs.utimesSync(file, now, now);
    } catch {
      todo.push(i);
    }
  });
  if (todo.length) {
    const workers = Array.from(
      { length: Math.min(todo.length, Math.max(1, os.availableParallelism())) },
      () => new Worker(path.join(here, 'zopfli-worker.mjs'), { workerData: OPTIONS }),
    );
    try {
      let next = 0;
      await Promise.all(
        workers.map(async (worker) => {
          for (let n = next++; n < todo.length; n = next++) {
            const i = todo[n];
            out[i] = await new Promise((resolve, reject) => {
              worker.once('message', (gz) => resolve(Buffer.from(gz)));
              worker.once('error', reject);
              worker.postMessage(buffers[i]);
            });
            worker.removeAllListeners('error');
            if (cache) keep(keys[i], out[i]);
          }
        }),
      );
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
  for (const name of cache ? fs.readdirSync(CACHE_DIR) : []) {
    const file = path.join(CACHE_DIR, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > KEEP_MS) fs.rmSync(file, { force: true });
    } catch {
      // removed by another build meanwhile
    }
  }
  return out;
}

/** Writes a result into the cache, whole or not at all (builds may run side by side); a failure only costs the cache. */
function keep(key, gz) {
  const file = path.join(CACHE_DIR, `${key}.gz`);
  try {
    fs.writeFileSync(`${file}.${process.pid}`, gz);
    fs.renameSync(`${file}.${process.pid}`, file);
  } catch {
    fs.rmSync(`${file}.${process.pid}`, { force: true });
  }
}
