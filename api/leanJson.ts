import type { Express, Response } from 'express';

/** Characters from which a body goes out as bytes (at least compression's threshold of 1,024 bytes, a UTF-8 character being one or more). */
const LARGE = 1024;

/**
 * `res.json` for this app's answers, without Express's general-purpose path: the API sends no ETag (no-store) and no
 * Last-Modified, so there is no freshness to check, no charset to parse back out of a Content-Type it sets itself,
 * and no settings to look up on every call. What it writes is byte for byte what Express writes
 * (test/unit/leanJson.test.ts). Anything out of that case (HEAD, 204/205/304, a Content-Type, ETag, Last-Modified or
 * Transfer-Encoding already set, an undefined body) goes to Express's own `res.json`, as do apps that set a JSON
 * replacer, spaces or escaping, or leave ETags on. Install it after those settings.
 */
export function installLeanJson(app: Express): void {
  const expressJson = app.response.json;
  // The settings Express's res.json and res.send read (test/unit/libraryPins.test.ts lists them): any set, Express answers.
  if (app.get('json replacer') || app.get('json spaces') || app.get('json escape') || app.get('etag fn')) return;
  app.response.json = function leanJson(this: Response, body?: unknown) {
    const status = this.statusCode;
    if (
      body === undefined ||
      this.req.method === 'HEAD' ||
      status === 204 ||
      status === 205 ||
      status === 304 ||
      this.getHeader('Content-Type') !== undefined ||
      this.getHeader('ETag') !== undefined ||
      this.getHeader('Last-Modified') !== undefined ||
      this.getHeader('Transfer-Encoding') !== undefined
    ) {
      return expressJson.call(this, body);
    }
    const text = JSON.stringify(body);
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (text.length < LARGE) {
      this.setHeader('Content-Length', String(Buffer.byteLength(text)));
      this.end(text, 'utf8');
    } else {
      // encoded once: its length is the buffer's, and compression (a body this large is compressed) takes the bytes
      const bytes = Buffer.from(text, 'utf8');
      this.setHeader('Content-Length', String(bytes.length));
      this.end(bytes);
    }
    return this;
  };
}
