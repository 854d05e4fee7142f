import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../errors.js';
import type { ByteRange, ObjectInfo, StorageDriver } from './driver.js';
import { signUpload } from './signing.js';
import { SNIFF_BYTES } from './fileTypes.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const KEY_RE = new RegExp(
  `^(files\\/\\d{4}\\/(0[1-9]|1[0-2])|logos|profiles|(?:lead-files|assets)\\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\/\\d{4}\\/(0[1-9]|1[0-2]))\\/${UUID}$`,
);
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

export interface ReceiveOptions {
  maxBytes: number;
  /** Decides from the first bytes (or the whole file when it is shorter) whether the content may be stored. */
  accept(head: Buffer, complete: boolean): Promise<boolean>;
}

/**
 * Bytes under <DATA_DIR>/storage/<key>. Uploads stream into storage/.tmp/ (same file system) and are renamed into
 * place only once complete, checked and synced, so a cut-off, oversized or refused upload leaves nothing behind.
 */
export class LocalDriver implements StorageDriver {
  readonly name = 'local' as const;
  readonly root: string;
  readonly tmpDir: string;

  constructor(
    dataDir: string,
    private secret: string,
  ) {
    this.root = path.join(dataDir, 'storage');
    this.tmpDir = path.join(this.root, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.removeStaleTemps();
  }

  /** The file behind a key; refuses anything that is not one of our generated keys (defence in depth). */
  file(key: string): string {
    if (!KEY_RE.test(key)) throw new Error(`local storage: refused key ${JSON.stringify(key)}`);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error('local storage: key outside the root');
    return full;
  }

  async signUpload(key: string, opts: { maxBytes: number; ttlSeconds: number }): Promise<string> {
    this.file(key);
    const expires = Math.floor(Date.now() / 1000) + opts.ttlSeconds;
    return `/storage/${key}?${signUpload(this.secret, { key, expires, maxBytes: opts.maxBytes })}`;
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const s = await fsp.stat(this.file(key));
      if (!s.isFile()) return null;
      return { size: s.size, modified: s.mtime, etag: `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"` };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async readHead(key: string, bytes: number): Promise<Buffer> {
    const fh = await fsp.open(this.file(key), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await fh.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.file(key);
    await fsp.access(file);
    return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  /** Written to a temporary file, synced, then renamed into place: a crash never leaves half a file under the key. */
  async put(key: string, body: Buffer): Promise<void> {
    const target = this.file(key);
    const tmp = path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
    try {
      const fh = await fsp.open(tmp, 'wx', 0o640);
      try {
        await fh.writeFile(body);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
  }

  /** Uploads are written to the temporary directory, then renamed beside it: both must be writable. */
  async check(): Promise<void> {
    await fsp.access(this.tmpDir, fs.constants.R_OK | fs.constants.W_OK);
    await fsp.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  async close(): Promise<void> {}

  /**
   * Streams an upload to a temporary file, checking the size as it goes and the type from the first bytes, then
   * syncs and renames it to the key. Throws ApiError 413 / 415 / 400 (and removes the temporary file) on refusal,
   * or the source's error when it fails or closes before its end (the client went away). The source is never
   * destroyed here: the caller decides what happens to the connection.
   */
  async receive(key: string, source: Readable, opts: ReceiveOptions): Promise<{ size: number }> {
    const target = this.file(key);
    const tmp = path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
    let size = 0;
    const check = gate(opts, (n) => (size = n));
    const fail = (e: Error) => check.destroy(e);
    const closed = () => {
      if (!source.readableEnded) fail(new Error('upload aborted'));
    };
    // flush: fsync before close, so the rename below never publishes bytes that are not on disk.
    const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o640, flush: true, highWaterMark: 1 << 20 });
    source.on('error', fail);
    source.on('close', closed);
    source.pipe(check);
    try {
      await pipeline(check, out);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
      return { size };
    } catch (e) {
      source.unpipe(check);
      // The file may still be opening when the upload fails: remove it only once the stream has let go of it.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await fsp.rm(tmp, { force: true });
      throw e;
    } finally {
      source.off('error', fail);
      source.off('close', closed);
    }
  }

  private removeStaleTemps(): void {
    for (const name of fs.readdirSync(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      try {
        if (Date.now() - fs.statSync(file).mtimeMs > STALE_TEMP_MS) fs.rmSync(file, { force: true });
      } catch {
        // another process took care of it
      }
    }
  }
}

/** Counts bytes (413 past the limit) and holds back the first SNIFF_BYTES until the type check passes (else 415). */
function gate(opts: ReceiveOptions, onSize: (n: number) => void): Transform {
  let size = 0;
  let head: Buffer[] | null = [];
  let headLength = 0;
  const refuse = () => new ApiError(415, 'file_type_not_allowed', 'This type of file is not allowed');
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      onSize(size);
      if (size > opts.maxBytes) return cb(new ApiError(413, 'file_too_large', 'The file is too large'));
      if (!head) return cb(null, chunk);
      head.push(chunk);
      headLength += chunk.length;
      if (headLength < SNIFF_BYTES) return cb();
      const held = Buffer.concat(head);
      head = null;
      opts.accept(held.subarray(0, SNIFF_BYTES), false).then(
        (ok) => (ok ? cb(null, held) : cb(refuse())),
        (err) => cb(err),
      );
    },
    flush(cb) {
      if (!head) return cb();
      const held = Buffer.concat(head);
      head = null;
      if (held.length === 0) return cb(new ApiError(400, 'file_empty', 'The file is empty'));
      opts.accept(held, true).then(
        (ok) => (ok ? cb(null, held) : cb(refuse())),
        (err) => cb(err),
      );
    },
  });
}
