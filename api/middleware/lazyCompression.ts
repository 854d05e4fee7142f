import http from 'node:http';
import compression from 'compression';
import type { Express, Response } from 'express';

const ENGAGED = Symbol('compression engaged');
// compression's own test, case-insensitive as its is (Cache-Control directives are)
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

type Res = Response & { [ENGAGED]?: boolean };

/**
 * The `compression` middleware, put on a response only when it could compress it. Most API answers are a small JSON
 * body sent whole with its Content-Length (res.json, res.send): under the threshold compression never compresses,
 * yet wrapping every response (write, end, on, writeHead hooks, a close listener) cost a few percent of a small
 * GET's CPU. So this app's response prototype gets `write` and `end` that, the first time either is called:
 *
 * - on `end` with the whole body, headers not sent and the body (its Content-Length, or else the chunk) under the
 *   threshold: add `Vary: Accept-Encoding` where compression would (a compressible type, no `no-transform`) and end
 *   as is, which is what compression does with such a body;
 * - otherwise (a stream's first write, a large body): hand the response to `compression` itself, unchanged, and
 *   replay the call through it.
 *
 * Same headers and bytes as `compression()` mounted for every request (test/unit/lazyCompression.test.ts).
 */
export function installLazyCompression(app: Express, options: compression.CompressionOptions = {}): void {
  const threshold = typeof options.threshold === 'number' ? options.threshold : 1024;
  if (options.threshold !== undefined && typeof options.threshold !== 'number') throw new Error('lazy compression: give the threshold in bytes');
  const compress = compression({ ...options, threshold });
  const filter = options.filter ?? compression.filter;
  const base = http.ServerResponse.prototype;
  const proto = app.response as Res;

  const engage = (res: Res) => {
    res[ENGAGED] = true;
    compress(res.req, res, () => undefined);
  };

  proto.write = function write(this: Res, ...args: unknown[]) {
    if (this[ENGAGED] === undefined) {
      engage(this);
      return (this.write as (...a: unknown[]) => boolean)(...args);
    }
    return (base.write as (...a: unknown[]) => boolean).apply(this, args);
  } as Response['write'];

  proto.end = function end(this: Res, ...args: unknown[]) {
    if (this[ENGAGED] === undefined) {
      const [chunk, encoding] = args;
      if (!this.headersSent && typeof chunk !== 'function' && isSmall(this, chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined, threshold)) {
        this[ENGAGED] = false;
        if (filter(this.req, this) && !NO_TRANSFORM.test(String(this.getHeader('Cache-Control') ?? ''))) addVary(this);
      } else {
        engage(this);
        return (this.end as (...a: unknown[]) => Response)(...args);
      }
    }
    return (base.end as (...a: unknown[]) => Response).apply(this, args);
  } as Response['end'];
}

/** Compression's own test: the Content-Length when there is one, else the length of the last chunk. */
function isSmall(res: Response, chunk: unknown, encoding: BufferEncoding | undefined, threshold: number): boolean {
  const declared = res.getHeader('Content-Length');
  if (declared !== undefined) return Number(declared) < threshold;
  if (!chunk) return true;
  if (Buffer.isBuffer(chunk)) return chunk.length < threshold;
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, encoding) < threshold;
  return false;
}

/** Appends Accept-Encoding to Vary (as the `vary` package does: not twice, not past `*`). */
function addVary(res: Response): void {
  const current = res.getHeader('Vary');
  if (current === undefined || current === '') {
    res.setHeader('Vary', 'Accept-Encoding');
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const fields = value.split(',').map((f) => f.trim().toLowerCase());
  if (fields.includes('*') || fields.includes('accept-encoding')) return;
  res.setHeader('Vary', `${value}, Accept-Encoding`);
}
