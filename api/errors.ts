import crypto from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { messageFor } from '../resources/messages.js';

/** An error a client can act on: HTTP status, a stable snake_case code, text, and field errors (message keys). */
export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message?: string,
    public fields?: Record<string, string>,
    public details?: unknown,
  ) {
    super(message ?? messageFor(`error_${code}`));
  }
}

export const notFound = (what = 'Not found') => new ApiError(404, 'not_found', what);
export const unauthorized = () => new ApiError(401, 'not_logged_in', 'Please log in');

/** Zod issues → { field: messageKey }, the first issue of each field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in fields)) fields[key] = issue.message.startsWith('error_') ? issue.message : 'error_invalid_value';
  }
  return fields;
}

/** Parses a body with a zod schema; bad input → 400 validation_failed with field errors. */
export function validate<S extends z.ZodTypeAny>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const fields = fieldErrors(result.error);
    const first = Object.values(fields)[0];
    throw new ApiError(400, 'validation_failed', first ? messageFor(first) : 'Invalid input', fields);
  }
  return result.data;
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(notFound('No such route'));

/** One error mapper: known errors keep their status; database constraint errors map to 4xx; the rest are 500 with a request id. */
export function errorHandler(log: (msg: string, extra?: unknown) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else if (err instanceof URIError && (err as { status?: number }).status === 400) e = new ApiError(400, 'invalid_url', 'The address is not valid'); // bad %-escape in a route parameter
    else if (err?.type === 'entity.parse.failed') e = new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
    else if (err?.type === 'entity.too.large') e = new ApiError(413, 'payload_too_large', 'The request body is too large');
    else if (err?.code === 'LIMIT_FILE_SIZE') e = new ApiError(413, 'file_too_large', 'The file is too large');
    else if (err?.code === '23505') e = new ApiError(409, 'conflict', 'A record with the same value already exists');
    else if (err?.code === '23503') e = new ApiError(409, 'reference_conflict', 'The record refers to, or is referred to by, another record');
    else if (err?.code === '22P02' || err?.code === '22001' || err?.code === '22021') e = new ApiError(400, 'validation_failed', 'Invalid input');
    else {
      const requestId = typeof req.id === 'string' ? req.id : crypto.randomUUID();
      log(`[${requestId}] ${req.method} ${req.originalUrl.split('?')[0]}: unhandled error`, err);
      e = new ApiError(500, 'unknown_error', 'An unknown error occured.', undefined, { requestId });
    }
    if (res.headersSent) return;
    const body: Record<string, unknown> = { code: e.code, message: e.message };
    if (e.fields) body.fields = e.fields;
    if (e.details) Object.assign(body, e.details);
    res.status(e.status).json(body);
  };
}

