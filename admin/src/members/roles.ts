import { ROLE_RANK, ROLES, type Role } from '../../../resources/permissions';

const rank = (role: unknown): number => ROLE_RANK[role as Role] ?? 0;

/** The roles a caller may hand out in an account: never one above its own (account-console.md: members). */
export function rolesUpTo(own: string | undefined): Role[] {
  return ROLES.filter((r) => rank(r) <= rank(own));
}

/** A member (or invite) whose role ranks above the caller's: the caller may not change or remove it. */
export function ranksAbove(role: unknown, own: string | undefined): boolean {
  return rank(role) > rank(own);
}
