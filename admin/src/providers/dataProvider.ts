import { fetchUtils, HttpError, type DataProvider } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import { accountPath } from './accountPath';
import { API_URL, withCsrf, withCsrfRetry, type ApiErrorBody } from './http';
import { errorText } from '../i18n';

/**
 * fetchUtils.fetchJson with cookies and the CSRF header on every call, one retry after a 403 csrf_invalid, and
 * API errors turned into what react-admin shows: the message is the translation of error_{code} (else the server's
 * text), and `body.errors` carries the field errors (message keys) that forms put under their inputs.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}) {
  const call = () => fetchUtils.fetchJson(url, { ...options, credentials: 'include', headers: withCsrf(options.headers as HeadersInit | undefined) });
  try {
    if (!options.method || options.method === 'GET') return await call();
    return await withCsrfRetry(call, (e) => (e instanceof HttpError ? { status: e.status, body: e.body } : undefined));
  } catch (e) {
    if (e instanceof HttpError) throw toReactAdminError(e.status, e.body as ApiErrorBody | undefined);
    throw e;
  }
}

export function toReactAdminError(status: number, body: ApiErrorBody | undefined): HttpError {
  const b: ApiErrorBody = body && typeof body === 'object' && body.code ? body : { code: status >= 500 ? 'unknown_error' : 'http_error' };
  return new HttpError(errorText(b), status, { ...b, errors: b.fields && Object.keys(b.fields).length ? b.fields : undefined });
}

const rest = simpleRestProvider(API_URL, httpClient);

/**
 * Resource names the admin uses that are not plain paths: members live under their account
 * (accountUsers + meta.accountId -> accounts/{id}/users), and the member form's picker lists users not in it yet
 * (unlinkedUsers + meta.accountId -> accounts/{id}/users/unlinked).
 */
export function resourcePath(resource: string, meta?: { accountId?: string }): string {
  if (resource === 'accountUsers' || resource === 'unlinkedUsers') {
    const accountId = meta?.accountId;
    if (!accountId) throw new Error(`${resource} needs meta.accountId`);
    // ra-data-simple-rest joins API_URL and the resource with a slash of its own
    return (resource === 'accountUsers' ? accountPath(accountId, 'users') : accountPath(accountId, 'users', 'unlinked')).slice(1);
  }
  return resource;
}

type Params = { id?: string | number; meta?: { accountId?: string; query?: string } };

export const dataProvider: DataProvider = new Proxy(rest, {
  get(target, method: string) {
    const fn = (target as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') return fn;
    // A delete with meta.query (e.g. force=1: an asset carousels use, after the console showed where) adds it.
    if (method === 'delete')
      return async (resource: string, params: Params) => {
        if (!params?.meta?.query) return fn.call(target, resourcePath(resource, params?.meta), params);
        const url = `${API_URL}/${resourcePath(resource, params.meta)}/${encodeURIComponent(String(params.id))}?${params.meta.query}`;
        const { json } = await httpClient(url, { method: 'DELETE' });
        return { data: json };
      };
    return (resource: string, params: Params) => fn.call(target, resourcePath(resource, params?.meta), params);
  },
});
