import type { AuthProvider } from 'ra-core';
import { ACCOUNT_RESOURCES } from '../../../resources/index';
import { parentFieldOf } from '../../../resources/define';
import { isUuid } from '../../../resources/fields';
import type { ResourceDeclaration } from '../../../resources/types';
import { canInAccount, roleInAccount } from '../permissions';
import { loadSession, type Session } from '../providers/session';
import { permissionsFor } from '../generated/access';

export { accountAddress, clearAccountCache, consolePath, enterAccount } from './paths';

/** Who enters a console: a member of the account (any role) and a root user (who acts as root). */
export function canEnterConsole(session: Session | null | undefined, accountId: string | undefined): boolean {
  return !!accountId && isUuid(accountId) && !!roleInAccount(session, accountId);
}

/**
 * The menu's resources: every account resource that is not a child of another (those get tabs on their parent) and
 * does not say `menu: false` (saved views: managed from each list's Views menu).
 */
// The account's one-record settings come last, after the resources an organiser works with every day.
const inMenu = (d: ResourceDeclaration) => !parentFieldOf(d) && d.menu !== false;
export const MENU_RESOURCES: ResourceDeclaration[] = [...ACCOUNT_RESOURCES.filter((d) => inMenu(d) && !d.singleton), ...ACCOUNT_RESOURCES.filter((d) => inMenu(d) && d.singleton)];

/** A menu item shows with its group's read bit for the caller's role in that account. */
export function menuResourcesFor(session: Session | null | undefined, accountId: string): ResourceDeclaration[] {
  return MENU_RESOURCES.filter((d) => canInAccount(session, accountId, d.group, 'read'));
}

/** Console pages that are not resources (routes of their own), each shown with one permission of its group. */
export const CONSOLE_PAGES = [
  { name: 'statistics', group: 'account_statistics', permission: 'read' },
  // The API's description: for those who may make API calls (API tokens and "copy as cURL" need the same bit).
  { name: 'developer', group: 'app_general', permission: 'export_curl' },
] as const;
export type ConsolePageName = (typeof CONSOLE_PAGES)[number]['name'];

/** The menu's pages the caller may open in that account. */
export function menuPagesFor(session: Session | null | undefined, accountId: string): (typeof CONSOLE_PAGES)[number][] {
  return CONSOLE_PAGES.filter((p) => canInAccount(session, accountId, p.group, p.permission));
}

/**
 * react-admin's canAccess inside one account's console: an account resource asks its group's bits for the caller's
 * role in that account (through the shared can() and the session's grants); anything else is the entry admin's rule.
 */
export function consoleAuthProvider(base: AuthProvider, accountId: string, session: () => Promise<Session | null> = () => loadSession()): AuthProvider {
  return {
    ...base,
    async canAccess(params) {
      const decl = ACCOUNT_RESOURCES.find((d) => d.name === params.resource);
      if (!decl) return base.canAccess ? base.canAccess(params) : true;
      const s = await session();
      return permissionsFor(params.action).some((p) => canInAccount(s, accountId, decl.group, p));
    },
  };
}
