import { API_URL } from './http';

/**
 * The API path of something in an account, for api(): accountPath(a, 'lists', id, 'tree') →
 * /accounts/{a}/lists/{id}/tree. Every part is one path segment, encoded (an id or a name never adds a segment).
 */
export function accountPath(accountId: string, ...segments: string[]): string {
  return ['', 'accounts', accountId, ...segments].map((part, i) => (i < 2 ? part : encodeURIComponent(part))).join('/');
}

/** The same as a full URL (/api/1/accounts/…), for links, downloads and stylesheets. */
export const accountUrl = (accountId: string, ...segments: string[]): string => `${API_URL}${accountPath(accountId, ...segments)}`;
