import { can, PERMISSIONS, ADMIN_ACCOUNT_ROLES, type Matrix } from '../../resources/permissions';
import type { Membership, Session } from './providers/session';

/** Which permission group guards each admin resource (spec 6: the entry_* groups). */
export const RESOURCE_GROUPS: Record<string, string> = {
  accounts: 'entry_accounts',
  users: 'entry_users',
  accountUsers: 'entry_account_users',
  media: 'entry_files',
  emails: 'entry_users',
};

/** react-admin actions -> permission names; anything else (change_password, set_role…) is passed through. */
const ACTIONS: Record<string, string> = { list: 'read', show: 'read', read: 'read', export: 'read', create: 'create', edit: 'update', update: 'update', delete: 'delete' };

/** The caller's own grants as a one-role matrix, so the server's (database) grants decide, through the shared can(). */
function ownMatrix(session: Session): Matrix {
  return { [session.user.u_role]: session.permissions };
}

export function canEntry(session: Session | null | undefined, resource: string, action: string): boolean {
  if (!session) return false;
  const group = RESOURCE_GROUPS[resource] ?? resource;
  // Spec 6: only a root user imports users from CSV.
  if (resource === 'users' && action === 'import') return session.user.u_role === 'root' && can(session.user.u_role, group, 'create', ownMatrix(session));
  return can(session.user.u_role, group, ACTIONS[action] ?? action, ownMatrix(session));
}

/** The caller's role in an account: a root user acts as root everywhere, anyone else by membership. */
export function roleInAccount(session: Session | null | undefined, accountId: string | undefined): string | undefined {
  if (!session) return undefined;
  if (session.user.u_role === 'root') return 'root';
  return session.accounts.find((a) => a.a_id === accountId)?.au_role;
}

/** An account_* permission in one account (e.g. account_members set_role for the member form's role picker). */
export function canInAccount(session: Session | null | undefined, accountId: string | undefined, group: string, permission: string): boolean {
  const role = roleInAccount(session, accountId);
  if (!role || !session) return false;
  const matrix = role === session.user.u_role ? ownMatrix(session) : PERMISSIONS;
  return can(role, group, permission, matrix);
}

/** Spec 2: account selection offers the accounts where the membership role is root or superadmin. */
export function adminAccounts(session: Session | null | undefined): Membership[] {
  return (session?.accounts ?? []).filter((a) => (ADMIN_ACCOUNT_ROLES as string[]).includes(a.au_role));
}
