import type { Request, RequestHandler, Response } from 'express';

/**
 * A header middleware whose headers never depend on the request (helmet's, with fixed directives), run once at start
 * and replayed: helmet rebuilds its Content-Security-Policy string on every request, which on a small GET costs
 * about a tenth of the API's CPU. Throws if the middleware turns out not to be static (reads the request, calls
 * next with an error, or answers asynchronously).
 */
export function staticHeaders(middleware: RequestHandler): RequestHandler {
  const set: [string, string | string[]][] = [];
  const removed: string[] = [];
  const record = {
    setHeader(name: string, value: string | number | string[]) {
      set.push([name, Array.isArray(value) ? value : String(value)]);
      return record;
    },
    removeHeader(name: string) {
      removed.push(name);
    },
    getHeader: () => undefined,
  };
  const request = new Proxy({} as Request, {
    get(_target, key) {
      throw new Error(`staticHeaders: the middleware reads req.${String(key)}, so its headers are not static`);
    },
  });
  let done = false;
  middleware(request, record as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('staticHeaders: the middleware did not call next() at once');
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
