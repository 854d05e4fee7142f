import express, { type RequestHandler } from 'express';
import { ApiError } from '../errors.js';

/** Deeper than any body the API takes (its deepest is two levels); a JSON tree past it is refused, not walked. */
export const MAX_BODY_DEPTH = 32;

/** Keys that, copied with Object.assign or a merge, would reach an object's prototype. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export interface JsonBodyOptions {
  limit?: string | number;
  maxDepth?: number;
}

/**
 * The API's JSON body parser: body-parser's (size limit 413, UTF-* charsets only 415, Content-Encoding inflated or
 * 415/400; errors mapped in api/errors.ts), then a check of the parsed tree: nesting past maxDepth → 400
 * body_too_deep, a __proto__/constructor/prototype key anywhere → 400 forbidden_key. Non-JSON bodies pass unread.
 */
export function jsonBody({ limit = '1mb', maxDepth = MAX_BODY_DEPTH }: JsonBodyOptions = {}): RequestHandler {
  const parse = express.json({ limit });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        checkJsonTree(req.body, maxDepth);
        next();
      } catch (e) {
        next(e);
      }
    });
}

/**
 * Walks a parsed JSON value without recursion (V8's JSON.parse takes a million levels; a recursive walk would not),
 * and throws a 400 ApiError for nesting deeper than maxDepth or a forbidden key.
 */
export function checkJsonTree(value: unknown, maxDepth: number): void {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) throw new ApiError(400, 'body_too_deep', `The request body is nested deeper than ${maxDepth} levels`);
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) throw new ApiError(400, 'forbidden_key', `The request body may not contain the key "${key}"`);
      stack.push([(node as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

/** busboy's own messages for a multipart body it cannot read (it gives them no code). */
const BUSBOY_MALFORMED = [
  'Unexpected end of form',
  'Unexpected end of file',
  'Malformed part header',
  'Malformed content type',
  'Malformed urlencoded form',
  'Multipart: Boundary not found',
  'Missing Content-Type',
];

/**
 * A multer callback's error as the client's fault where it is one: busboy's parse errors (a body cut off halfway, a
 * bad boundary or part header) → 400 invalid_multipart. Anything else (MulterError limits, mapped in api/errors.ts;
 * disk faults) is returned as it is.
 */
export function multipartError(err: unknown): unknown {
  const message = (err as { message?: unknown })?.message;
  if (err instanceof Error && !(err instanceof ApiError) && typeof message === 'string') {
    if (BUSBOY_MALFORMED.includes(message) || message.startsWith('Unsupported content type:'))
      return new ApiError(400, 'invalid_multipart', 'The multipart body is malformed or incomplete');
    // multer's own words when the connection ends mid-body: nobody is left to answer, but it is no fault of ours.
    if (message === 'Request aborted' || message === 'Request closed') return new ApiError(400, 'request_aborted', 'The request body was cut off');
  }
  return err;
}
