/**
 * The one way the admin talks to the API: same origin, cookies, JSON, and the CSRF token from the readable
 * `ls.csrf-token` cookie in `X-CSRF-Token` on every call. No react-admin import here, so the sign-in page stays small.
 */

export const API_URL = '/api/1';
export const CSRF_COOKIE = 'ls.csrf-token';
export const CSRF_HEADER = 'X-CSRF-Token';
export const GUEST_TOKEN_HEADER = 'X-Guest-Token';

/** The API's error body (DESIGN.md): a stable code, English text, and field errors as message keys. */
export interface ApiErrorBody {
  code: string;
  message?: string;
  fields?: Record<string, string>;
  [extra: string]: unknown;
}

export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

export const csrfToken = () => readCookie(CSRF_COOKIE);

/** Headers every call carries; `extra` may be a Headers object or a plain record. */
export function withCsrf(extra?: HeadersInit): Headers {
  const headers = new Headers(extra);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = csrfToken();
  if (token) headers.set(CSRF_HEADER, token);
  return headers;
}

/** Any GET hands out a fresh CSRF cookie bound to the current session (api/middleware/csrf.ts). */
export async function refreshCsrf(): Promise<void> {
  await fetch(`${API_URL}/auth/me`, { credentials: 'include', headers: { Accept: 'application/json' } }).catch(() => undefined);
}

export const isCsrfError = (status: number, body: unknown) => status === 403 && (body as ApiErrorBody | undefined)?.code === 'csrf_invalid';

/**
 * Runs a call with the CSRF header; when the server answers 403 csrf_invalid (the session changed, e.g. after a
 * logout in another tab), refreshes the cookie with a GET and tries exactly once more.
 */
export async function withCsrfRetry<T>(call: () => Promise<T>, failure: (e: unknown) => { status?: number; body?: unknown } | undefined): Promise<T> {
  if (!csrfToken()) await refreshCsrf();
  try {
    return await call();
  } catch (e) {
    const f = failure(e);
    if (f && isCsrfError(f.status ?? 0, f.body)) {
      await refreshCsrf();
      return call();
    }
    throw e;
  }
}

/** A failed API call: HTTP status and the parsed body (spec 7: failed responses reject with the parsed JSON). */
export class ApiRequestError extends Error {
  constructor(
    public status: number,
    public body: ApiErrorBody,
  ) {
    super(body.message || body.code || `HTTP ${status}`);
    this.name = 'ApiRequestError';
  }
  get code(): string {
    return this.body.code;
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a FormData (a multipart upload) is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** JSON call to /api/1 with cookies and the CSRF header; rejects with ApiRequestError. */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const call = async () => {
    const headers = withCsrf(options.headers);
    let body: BodyInit | undefined;
    // FormData gets its multipart Content-Type (with the boundary) from fetch itself
    if (typeof FormData !== 'undefined' && options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(options.body);
    }
    const res = await fetch(`${API_URL}${path}`, { method: options.method ?? 'GET', credentials: 'include', headers, body, signal: options.signal });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const errorBody: ApiErrorBody =
        json && typeof json === 'object' && 'code' in json ? (json as ApiErrorBody) : { code: res.status >= 500 ? 'unknown_error' : 'http_error', message: res.statusText };
      throw new ApiRequestError(res.status, errorBody);
    }
    return json as T;
  };
  if (!options.method || options.method === 'GET') return call();
  return withCsrfRetry(call, (e) => (e instanceof ApiRequestError ? { status: e.status, body: e.body } : undefined));
}
