/**
 * Roles, permission bits and the one `can()` that the API middleware and the admin's authProvider both ask (spec point
 * 6). A leaf module: resource declarations import it, and resources/permissions.ts builds the matrix from their grants.
 */

export const ROLES = ['root', 'superadmin', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** Bits of the usual groups. */
export const CRUD = { read: 1, create: 2, update: 4, delete: 8 } as const;

/** Permission names per group; a group not listed here has the usual CRUD bits. */
export const GROUP_PERMISSIONS: Record<string, Record<string, number>> = {
  entry_users: { ...CRUD, change_password: 16 },
  account_members: { ...CRUD, set_role: 16 },
  entry_profile: { read: 1, update: 2 },
  entry_handoffs: { read: 1 },
  account_handoffs: { read: 1, create: 2, update: 4 },
  app_general: { get_data: 1, upload: 2, download: 4, export_curl: 8 },
};

/** A grant is a bit mask, or '*' for every bit of the group. */
export type Grant = number | '*';
export type Matrix = Record<string, Partial<Record<string, Grant>>>;
/** A permission group's default grant for each role: what a database gets when it lacks that (role, group) row. */
export type RoleGrants = Record<Role, Grant>;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * An operation a resource offers to nobody (a handoff's delete: its group has no delete bit, so the history stays).
 * No group has such a bit, so can() is false for every role and the route answers 403.
 */
export const NOBODY = 'nobody';

/** The bits a permission name (or number) stands for in a group; 0 when unknown. */
export function permissionBits(group: string, permission: string | number): number {
  if (typeof permission === 'number') return Number.isInteger(permission) && permission > 0 ? permission : 0;
  const names = GROUP_PERMISSIONS[group] ?? CRUD;
  return (names as Record<string, number>)[permission] ?? 0;
}

export function allBits(group: string): number {
  return Object.values(GROUP_PERMISSIONS[group] ?? CRUD).reduce((a, b) => a | b, 0);
}

/**
 * True when `role` holds every bit of `permission` in `group` of `matrix`.
 * False for a missing or unknown role, group or permission (a group the matrix does not name has no grant), and for a
 * group with no bits. A '*' grant holds every bit; asking for '*' is true when the group has any bit.
 */
export function canWith(matrix: Matrix, role: string | null | undefined, group: string | null | undefined, permission: string | number | null | undefined): boolean {
  if (!role || !group || permission === null || permission === undefined || permission === '') return false;
  const grants = Object.hasOwn(matrix, role) ? matrix[role] : undefined;
  if (!grants || !Object.hasOwn(grants, group)) return false;
  const grant = grants[group];
  if (grant === undefined || grant === 0) return false;
  const granted = grant === '*' ? allBits(group) : grant;
  if (granted === 0) return false;
  if (permission === '*') return true;
  const wanted = permissionBits(group, permission);
  if (wanted === 0) return false;
  return (granted & wanted) === wanted;
}

/** Roles ordered from most to least powerful, for "highest role" decisions. */
export const ROLE_RANK: Record<Role, number> = { root: 4, superadmin: 3, admin: 2, member: 1 };

/** Membership roles that open the account console (spec: account selection). */
export const ADMIN_ACCOUNT_ROLES: Role[] = ['root', 'superadmin'];

/** DESIGN.md: platform staff see every account; any other user only the accounts it is a member of. */
export const PLATFORM_STAFF_ROLES: Role[] = ['root', 'superadmin', 'admin'];

/** DESIGN.md: a user whose own role is root acts as root in every account; anyone else by membership. */
export function accountRoleOf(userRole: string | undefined, membershipRole: string | undefined): string | undefined {
  return userRole === 'root' ? 'root' : membershipRole;
}

/** The same grant for platform and console staff (root, superadmin, admin), another for members. */
export const staffAndMembers = (staff: Grant, member: Grant): RoleGrants => ({ root: staff, superadmin: staff, admin: staff, member });
