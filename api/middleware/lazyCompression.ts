import http from 'node:http';
import zlib from 'node:zlib';
import compression from 'compression';
import type { Express, Response } from 'express';
import Negotiator from 'negotiator';

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
 * - on `end` with the whole body over the threshold but at most WHOLE_MAX (a list page, a record): compress it in one
 *   call, as `compression` would have chosen (the same negotiation, encoding and level), and send it with its
 *   Content-Length in one write. A stream through the zlib thread pool cost a list page a wake-up of the pool, a
 *   stream's machinery and a chunked response's two writes (issue 18, CPU per list page).
 *
 * Same headers and bytes as `compression()` mounted for every request (test/unit/lazyCompression.test.ts), except that
 * a whole body it compresses goes with a Content-Length instead of chunked.
 */
export function installLazyCompression(app: Express, options: compression.CompressionOptions = {}): void {
  const threshold = typeof options.threshold === 'number' ? options.threshold : 1024;
  if (options.threshold !== undefined && typeof options.threshold !== 'number') throw new Error('lazy compression: give the threshold in bytes');
  const compress = compression({ ...options, threshold });
  const filter = options.filter ?? compression.filter;
  // What compression() gives its zlib streams, for the bodies compressed whole: its brotli quality (4 unless given).
  const zlibOptions: Settings = { gzip: { level: options.level }, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, ...options.brotli?.params } } };
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
        const whole =
          typeof chunk !== 'function' && !this.headersSent
            ? compressWhole(this, filter, zlibOptions, chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined)
            : undefined;
        if (whole) {
          this[ENGAGED] = false;
          return (base.end as (...a: unknown[]) => Response).call(this, whole);
        }
        engage(this);
        return (this.end as (...a: unknown[]) => Response)(...args);
      }
    }
    return (base.end as (...a: unknown[]) => Response).apply(this, args);
  } as Response['end'];
}

/** The largest whole body compressed in one call (on the event loop); larger ones go through the stream. */
const WHOLE_MAX = 256 * 1024;
const SUPPORTED = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED = ['br', 'gzip'];
interface Settings {
  gzip: zlib.ZlibOptions;
  br: zlib.BrotliOptions;
}

/**
 * A whole body (under WHOLE_MAX, over the threshold: the caller checked) compressed as `compression` would for this
 * request, with its headers set; undefined when compression would leave it alone or stream it.
 */
function compressWhole(res: Response, filter: compression.CompressionFilter, settings: Settings, chunk: unknown, encoding: BufferEncoding | undefined): Buffer | undefined {
  if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return undefined;
  const body = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
  if (body.length > WHOLE_MAX || res.req.method === 'HEAD') return undefined;
  if (res.getHeader('Content-Encoding') !== undefined && res.getHeader('Content-Encoding') !== 'identity') return undefined;
  if (!filter(res.req, res) || NO_TRANSFORM.test(String(res.getHeader('Cache-Control') ?? ''))) return undefined;
  // negotiator 1's options (the preferred order among equals, as compression's 0.6.4 takes it; @types describe 0.6).
  const negotiator = new Negotiator(res.req) as unknown as { encoding(available: string[], options: { preferred: string[] }): string | undefined };
  const method = res.req.headers['accept-encoding'] ? negotiator.encoding(SUPPORTED, { preferred: PREFERRED }) : 'identity';
  if (!method || method === 'identity') return undefined;
  const out = method === 'br' ? zlib.brotliCompressSync(body, settings.br) : method === 'gzip' ? zlib.gzipSync(body, settings.gzip) : zlib.deflateSync(body, settings.gzip);
  addVary(res);
  res.setHeader('Content-Encoding', method);
  res.setHeader('Content-Length', out.length);
  return out;
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
