import type { DataProvider } from 'ra-core';
import simpleRestProvider from 'ra-data-simple-rest';
import { ACCOUNT_RESOURCES } from '../../../resources/index';
import { accountPath } from './accountPath';
import { API_URL } from './http';
import { httpClient } from './dataProvider';

type Http = typeof httpClient;

/** The account console's resources by name (members, events, settings…). */
const ACCOUNT_NAMES = new Set(ACCOUNT_RESOURCES.map((d) => d.name));
const SINGLETONS = new Set(ACCOUNT_RESOURCES.filter((d) => d.singleton).map((d) => d.name));

/**
 * Where a resource lives for one account's console: its account resources under /accounts/{a}/, the users who are not
 * members yet (a root user's member picker) at the entry API's /accounts/{a}/users/unlinked, the rest as they are.
 */
export function accountResourcePath(accountId: string, resource: string): string {
  // ra-data-simple-rest joins API_URL and the resource with a slash of its own
  if (resource === 'unlinkedUsers') return accountPath(accountId, 'users', 'unlinked').slice(1);
  return ACCOUNT_NAMES.has(resource) ? accountPath(accountId, resource).slice(1) : resource;
}

/**
 * The data provider of one account's console: the stock ra-data-simple-rest client with every account resource mapped
 * to /api/1/accounts/{accountId}/<name> (the account of the console, never a global), and a singleton (settings) read
 * and written on its resource path itself (GET/PUT …/settings, answering id = the account id). Other resources (users,
 * accounts) keep their plain paths.
 */
export function accountDataProvider(accountId: string, http: Http = httpClient): DataProvider {
  const rest = simpleRestProvider(API_URL, http);
  const singletonUrl = (resource: string) => `${API_URL}/${accountResourcePath(accountId, resource)}`;
  const mapped = new Proxy(rest, {
    get(target, method: string) {
      const fn = (target as unknown as Record<string, unknown>)[method];
      if (typeof fn !== 'function') return fn;
      return (resource: string, params: unknown) => fn.call(target, accountResourcePath(accountId, resource), params);
    },
  });
  return {
    // Spreading the proxy copies every method through its mapping.
    ...mapped,
    async getOne(resource, params) {
      if (!SINGLETONS.has(resource)) return mapped.getOne(resource, params);
      const { json } = await http(singletonUrl(resource), { signal: params.signal });
      return { data: json };
    },
    async update(resource, params) {
      if (!SINGLETONS.has(resource)) return mapped.update(resource, params);
      const { json } = await http(singletonUrl(resource), { method: 'PUT', body: JSON.stringify(params.data) });
      return { data: json };
    },
  };
}
