import type { QueryClient } from '@tanstack/react-query';
import type { Membership } from '../providers/session';

/* Where consoles live and what moving between them does; small, so the entry admin's switcher can use it. */

/** The console of an account lives at /console/{accountId} (account-console.md section 1). */
export const consolePath = (accountId: string, rest = '') => `/console/${accountId}${rest ? `/${rest}` : ''}`;

/** Account selection and the switcher: the account's own admin address when it has one, else its console. */
export const accountAddress = (a: Pick<Membership, 'a_id' | 'a_admin_url'>) => a.a_admin_url || consolePath(a.a_id);

/** Query keys that are the person's, not an account's: they survive a move to another account. */
const KEEP = new Set(['ls.session']);

/**
 * Moving to another account's console drops every cached query of the previous one (records, lists, totals, the
 * permission answers of react-admin), so nothing of account A is ever shown, even for a moment, in account B.
 */
export function clearAccountCache(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => !KEEP.has(String(q.queryKey[0])) });
}

let lastAccount: string | undefined;

/** Called as a console renders for an account: clears the cache when the previous console was another account's. */
export function enterAccount(queryClient: QueryClient, accountId: string): void {
  if (lastAccount !== undefined && lastAccount !== accountId) clearAccountCache(queryClient);
  lastAccount = accountId;
}

/**
 * Opens an account: its own admin address with a full page load (nothing cached travels), or its console in this app
 * after dropping the previous account's cached records.
 */
export function openAccount(a: Pick<Membership, 'a_id' | 'a_admin_url'>, navigate: (to: string) => void, queryClient: QueryClient): void {
  if (a.a_admin_url) {
    window.location.assign(a.a_admin_url);
    return;
  }
  clearAccountCache(queryClient);
  navigate(consolePath(a.a_id));
}
