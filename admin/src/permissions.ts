import { accountRoleOf, can, canImportUsers, ADMIN_ACCOUNT_ROLES, type Matrix } from '../../resources/permissions';
import { accounts } from '../../resources/accounts';
import { accountUsers } from '../../resources/accountUsers';
import { files } from '../../resources/files';
import { users } from '../../resources/users';
import type { Membership, Session } from './providers/session';

/** Which permission group guards each admin resource (spec 6: the entry_* groups), as the declarations say. */
export const RESOURCE_GROUPS: Record<string, string> = {
  ...Object.fromEntries([accounts, accountUsers, users].map((d) => [d.name, d.group])),
  // the media library's screen shows the storage's files (and their folders, in the same group)
  media: files.group,
  // the e-mail preview is a mail to a user
  emails: users.group,
};

/** react-admin actions -> permission names; anything else (change_password, set_role…) is passed through. */
const ACTIONS: Record<string, string> = { list: 'read', show: 'read', read: 'read', export: 'read', create: 'create', edit: 'update', update: 'update', delete: 'delete' };

/** The server's (database) grants of the roles the caller holds, so the shared can() decides as the API does. */
function sessionMatrix(session: Session): Matrix {
  return { ...session.roleGrants, [session.user.u_role]: session.permissions };
}

export function canEntry(session: Session | null | undefined, resource: string, action: string): boolean {
  if (!session) return false;
  const group = RESOURCE_GROUPS[resource] ?? resource;
  if (resource === 'users' && action === 'import') return canImportUsers(session.user.u_role, sessionMatrix(session));
  return can(session.user.u_role, group, ACTIONS[action] ?? action, sessionMatrix(session));
}

/** The caller's role in an account: a root user acts as root everywhere, anyone else by membership. */
export function roleInAccount(session: Session | null | undefined, accountId: string | undefined): string | undefined {
  if (!session) return undefined;
  return accountRoleOf(session.user.u_role, session.accounts.find((a) => a.a_id === accountId)?.au_role);
}

/** An account_* permission in one account (e.g. account_members set_role for the member form's role picker). */
export function canInAccount(session: Session | null | undefined, accountId: string | undefined, group: string, permission: string): boolean {
  const role = roleInAccount(session, accountId);
  if (!role || !session) return false;
  return can(role, group, permission, sessionMatrix(session));
}

/** Spec 2: account selection offers the accounts where the membership role is root or superadmin. */
export function adminAccounts(session: Session | null | undefined): Membership[] {
  return (session?.accounts ?? []).filter((a) => (ADMIN_ACCOUNT_ROLES as string[]).includes(a.au_role));
}
