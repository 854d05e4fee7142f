import crypto from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { z } from 'zod';
import { messageFor } from '../resources/messages.js';
import { isDatabaseUnavailable } from './db/unavailable.js';

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

/** body-parser's error types (http-errors with a `type`): a status and a clear code each. */
const BODY_PARSER: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'invalid_json', 'The request body is not valid JSON'],
  'entity.too.large': [413, 'payload_too_large', 'The request body is too large'],
  'charset.unsupported': [415, 'unsupported_media_type', 'The request body must be UTF-8 (or another UTF) JSON'],
  'encoding.unsupported': [415, 'unsupported_encoding', 'The Content-Encoding of the request body is not supported (use gzip, deflate, br or none)'],
  'request.aborted': [400, 'request_aborted', 'The request body was cut off'],
  'request.size.invalid': [400, 'invalid_content_length', 'The request body does not match its Content-Length'],
};

/** multer's limit and field errors (MulterError `code`): a body too big → 413, a malformed or unexpected part → 400. */
const MULTER: Record<string, [number, string, string]> = {
  LIMIT_FILE_SIZE: [413, 'file_too_large', 'The file is too large'],
  LIMIT_FIELD_VALUE: [413, 'payload_too_large', 'A form field is too large'],
  LIMIT_PART_COUNT: [413, 'payload_too_large', 'The form has too many parts'],
  LIMIT_FILE_COUNT: [413, 'payload_too_large', 'The form has too many files'],
  LIMIT_FIELD_COUNT: [413, 'payload_too_large', 'The form has too many fields'],
  LIMIT_FIELD_KEY: [400, 'invalid_multipart', 'A form field name is too long'],
  LIMIT_UNEXPECTED_FILE: [400, 'unexpected_file_field', 'The form has a file in a field that takes none'],
  MISSING_FIELD_NAME: [400, 'invalid_multipart', 'A form field has no name'],
  LIMIT_FIELD_NESTING: [400, 'invalid_multipart', 'A form field name is nested too deep'],
  LIMIT_FIELD_ARRAY_INDEX: [400, 'invalid_multipart', 'A form field name has too large an index'],
  INVALID_FIELD_NAME: [400, 'invalid_multipart', 'A form field name is not valid'],
  STREAM_DESTROYED: [400, 'invalid_multipart', 'The upload was cut off'],
};

/**
 * An error from reading the request (body-parser, multer, or any http-errors style `expose` 4xx) as the ApiError the
 * client gets; undefined when it is not one (then it is a fault of ours).
 */
export function requestError(err: unknown): ApiError | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { type, code, status, statusCode, expose, errno, message } = err as Record<string, unknown>;
  if (typeof type === 'string' && Object.hasOwn(BODY_PARSER, type)) return new ApiError(...BODY_PARSER[type]);
  if ((err as Error).name === 'MulterError' && typeof code === 'string' && Object.hasOwn(MULTER, code)) return new ApiError(...MULTER[code]);
  const clientStatus = typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500;
  // http-errors marks its own with statusCode too; `expose` says whether the message is fit for the client.
  if (!clientStatus || (expose !== true && statusCode !== status)) return undefined;
  // zlib's error, made a 400 by body-parser: the bytes are not what Content-Encoding says.
  if (typeof errno === 'number' && typeof code === 'string' && status === 400) return new ApiError(400, 'invalid_encoding', 'The request body does not match its Content-Encoding');
  const text = STATUS_CODES[status] ?? 'Bad Request';
  return new ApiError(status, snakeCase(text), expose === true && typeof message === 'string' && message ? message : text);
}

const snakeCase = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(notFound('No such route'));

/** One error mapper: known errors keep their status; database constraint errors map to 4xx; the rest are 500 with a request id. */
export function errorHandler(log: (msg: string, extra: unknown, req: Request) => void): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let e: ApiError;
    const fromRequest = requestError(err);
    if (err instanceof ApiError) e = err;
    else if (err instanceof URIError && (err as { status?: number }).status === 400)
      e = new ApiError(400, 'invalid_url', 'The address is not valid'); // bad %-escape in a route parameter
    else if (fromRequest) e = fromRequest;
    else if (isDatabaseUnavailable(err)) {
      res.setHeader('Retry-After', '2');
      e = new ApiError(503, 'database_unavailable', 'The service is briefly unavailable; please try again in a moment');
    } else if (err?.code === '23505') e = new ApiError(409, 'conflict', 'A record with the same value already exists');
    else if (err?.code === '23503') e = new ApiError(409, 'reference_conflict', 'The record refers to, or is referred to by, another record');
    else if (err?.code === '22P02' || err?.code === '22001' || err?.code === '22021') e = new ApiError(400, 'validation_failed', 'Invalid input');
    else if (err?.code === '23502')
      e = new ApiError(400, 'validation_failed', 'A required value is missing'); // NOT NULL: an empty value the rules let through
    else {
      const requestId = typeof req.id === 'string' ? req.id : crypto.randomUUID();
      log(`[${requestId}] ${req.method} ${req.originalUrl.split('?')[0]}: unhandled error`, err, req);
      e = new ApiError(500, 'unknown_error', 'An unknown error occured.', undefined, { requestId });
    }
    if (res.headersSent) return;
    const body: Record<string, unknown> = { code: e.code, message: e.message };
    if (e.fields) body.fields = e.fields;
    if (e.details) Object.assign(body, e.details);
    res.status(e.status).json(body);
  };
}
