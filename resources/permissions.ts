/**
 * Spec point 6 as data: roles x permission groups x bit flags. The groups and their default grants come from the
 * resource declarations (each names its group and, once per group, the grant of each role) and from the few groups
 * that guard something other than a resource (below); `can()` is the one check the API middleware and the admin ask.
 */
import { RESOURCES } from './registry.js';
import { allBits, canWith, ROLES, staffAndMembers, type Matrix, type RoleGrants } from './roles.js';
import type { ResourceDeclaration } from './types.js';

export * from './roles.js';

/**
 * Groups that guard something other than a declared resource: the caller's own profile, the handoff page, the leads
 * of an event's pages, the account's users, the capture app, statistics. Default grants per role.
 */
export const OTHER_GROUPS: Record<string, RoleGrants> = {
  entry_profile: staffAndMembers(3, 3),
  entry_handoffs: staffAndMembers(1, 1),
  account_event_leads: staffAndMembers(15, 1),
  account_users: staffAndMembers(15, 0),
  app_general: staffAndMembers(15, 7), // members: no export_curl
  // account-console.md section 2: statistics are read by console staff only.
  account_statistics: staffAndMembers(1, 0),
};

/**
 * Every permission group with its default grants: a group's grants are declared once, by one of its resources (the
 * others of the group name only the group) or in OTHER_GROUPS. A group without grants, or with two declarations of
 * them, is an error when the module loads (fail closed: nothing starts with an undecided group).
 */
export function groupGrants(resources: readonly ResourceDeclaration[], other: Record<string, RoleGrants>): Map<string, RoleGrants> {
  const out = new Map<string, RoleGrants>();
  const declaredBy = new Map<string, string>();
  for (const [group, grants] of Object.entries(other)) {
    out.set(group, grants);
    declaredBy.set(group, 'OTHER_GROUPS');
  }
  for (const r of resources) {
    if (!r.grants) continue;
    if (declaredBy.has(r.group)) throw new Error(`Permission group ${r.group}: grants declared by both ${declaredBy.get(r.group)} and ${r.name}`);
    out.set(r.group, r.grants);
    declaredBy.set(r.group, r.name);
  }
  const undecided = [...new Set(resources.map((r) => r.group))].filter((g) => !out.has(g));
  if (undecided.length) throw new Error(`Permission groups without default grants (declare \`grants\` on one resource of each): ${undecided.join(', ')}`);
  return out;
}

const GROUP_GRANTS = groupGrants(RESOURCES, OTHER_GROUPS);

export const GROUPS: readonly string[] = [...GROUP_GRANTS.keys()];
export type Group = string;

/** The code's matrix: every role's default grant in every group (seed 01 and the start write it where missing). */
export const PERMISSIONS: Matrix = Object.fromEntries(ROLES.map((role) => [role, Object.fromEntries([...GROUP_GRANTS].map(([group, grants]) => [group, grants[role]]))]));

export function isGroup(value: unknown): value is Group {
  return typeof value === 'string' && GROUP_GRANTS.has(value);
}

/**
 * True when `role` holds every bit of `permission` in `group`.
 * False for a missing or unknown role, group or permission, and for a group with no bits.
 * A '*' grant holds every bit; asking for '*' is true when the group has any bit.
 */
export function can(role: string | null | undefined, group: string | null | undefined, permission: string | number | null | undefined, matrix: Matrix = PERMISSIONS): boolean {
  return isGroup(group) && canWith(matrix, role, group, permission);
}

/** Every group with the bits a role holds, for the session response and the UI. */
export function grantsOf(role: string | null | undefined, matrix: Matrix = PERMISSIONS): Record<string, number> {
  const out: Record<string, number> = {};
  if (!role || !matrix[role]) return out;
  for (const group of GROUPS) {
    const grant = matrix[role][group];
    out[group] = grant === '*' ? allBits(group) : (grant ?? 0);
  }
  return out;
}

/** Rows for the permission_grants table (seed 01 and the start's fill-in of missing rows). */
export function grantRows(matrix: Matrix = PERMISSIONS): { pg_role: string; pg_group: string; pg_bits: number }[] {
  return ROLES.flatMap((role) => Object.entries(grantsOf(role, matrix)).map(([group, bits]) => ({ pg_role: role, pg_group: group, pg_bits: bits })));
}

/** A matrix read back from permission_grants rows. */
export function matrixFromRows(rows: { pg_role: string; pg_group: string; pg_bits: number }[]): Matrix {
  const m: Matrix = {};
  for (const r of rows) (m[r.pg_role] ??= {})[r.pg_group] = r.pg_bits;
  return m;
}

/** Spec 6: only a root user imports users from CSV (and it needs entry_users create like any user creation). */
export function canImportUsers(userRole: string | undefined, matrix: Matrix = PERMISSIONS): boolean {
  return userRole === 'root' && can(userRole, 'entry_users', 'create', matrix);
}
