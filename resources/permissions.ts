/**
 * Spec point 6 as data: roles x permission groups x bit flags, and the one `can()` that
 * the API middleware and the admin's authProvider both ask.
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

export const GROUPS = [
  'entry_accounts',
  'entry_account_users',
  'entry_users',
  'entry_profile',
  'entry_files',
  'entry_handoffs',
  'account_members',
  'account_invites',
  'account_events',
  'account_event_forms',
  'account_event_integrations',
  'account_event_leads',
  'account_forms',
  'account_form_elements',
  'account_form_styles',
  'account_leads',
  'account_lists',
  'account_integrations',
  'account_handoffs',
  'account_users',
  'app_general',
  // account-console.md section 2: five groups the spec does not show
  'account_mail_templates',
  'account_assets',
  'account_carousels',
  'account_statistics',
  'account_settings',
] as const;
export type Group = (typeof GROUPS)[number];

/** A grant is a bit mask, or '*' for every bit of the group. */
export type Grant = number | '*';
export type Matrix = Record<string, Partial<Record<string, Grant>>>;

/** account-console.md section 2: root, superadmin and admin. */
const consoleStaff: Partial<Record<Group, Grant>> = {
  account_mail_templates: 15,
  account_assets: 15,
  account_carousels: 15,
  account_statistics: 1,
  account_settings: 15,
};

const superadmin: Partial<Record<Group, Grant>> = {
  entry_accounts: 15,
  entry_account_users: 0,
  entry_users: 0,
  entry_profile: 3,
  entry_files: 0,
  entry_handoffs: 1,
  account_members: 15, // no set_role
  account_invites: 15,
  account_events: 15,
  account_event_forms: 15,
  account_event_integrations: 15,
  account_event_leads: 15,
  account_forms: 15,
  account_form_elements: 15,
  account_form_styles: 15,
  account_leads: 15,
  account_lists: 15,
  account_integrations: 15,
  account_handoffs: 7,
  account_users: 15,
  app_general: 15,
  ...consoleStaff,
};

export const PERMISSIONS: Matrix = {
  root: {
    entry_accounts: 15,
    // DESIGN.md: root is never below superadmin, so it also gets entry_account_users and account_invites.
    entry_account_users: 15,
    entry_users: 31,
    entry_profile: 3,
    entry_files: 15,
    entry_handoffs: 1,
    account_members: 31,
    account_invites: 15,
    account_events: 15,
    account_event_forms: 15,
    account_event_integrations: 15,
    account_event_leads: 15,
    account_forms: 15,
    account_form_elements: 15,
    account_form_styles: 15,
    account_leads: 15,
    account_lists: 15,
    account_integrations: 15,
    account_handoffs: 7,
    account_users: 15,
    app_general: 15,
    ...consoleStaff,
  },
  superadmin,
  // DESIGN.md: admin = superadmin except entry_accounts read+update and no account_members delete.
  admin: { ...superadmin, entry_accounts: 5, account_members: 7 },
  member: {
    entry_accounts: 1,
    entry_account_users: 0,
    entry_users: 0,
    entry_profile: 3,
    entry_files: 0,
    entry_handoffs: 1,
    account_members: 15,
    account_invites: 0,
    account_events: 1,
    account_event_forms: 1,
    account_event_integrations: 1,
    account_event_leads: 1,
    account_forms: 1,
    account_form_elements: 1,
    account_leads: 15,
    account_lists: 15,
    account_integrations: 1,
    account_handoffs: 7,
    account_users: 0,
    app_general: 7, // no export_curl
    account_mail_templates: 0,
    account_assets: 1,
    account_carousels: 1,
    account_statistics: 0,
    account_settings: 0,
  },
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isGroup(value: unknown): value is Group {
  return typeof value === 'string' && (GROUPS as readonly string[]).includes(value);
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

function allBits(group: string): number {
  return Object.values(GROUP_PERMISSIONS[group] ?? CRUD).reduce((a, b) => a | b, 0);
}

/**
 * True when `role` holds every bit of `permission` in `group`.
 * False for a missing or unknown role, group or permission, and for a group with no bits.
 * A '*' grant holds every bit; asking for '*' is true when the group has any bit.
 */
export function can(
  role: string | null | undefined,
  group: string | null | undefined,
  permission: string | number | null | undefined,
  matrix: Matrix = PERMISSIONS,
): boolean {
  if (!role || !group || permission === null || permission === undefined || permission === '') return false;
  if (!isGroup(group)) return false;
  const grants = matrix[role];
  if (!grants) return false;
  const grant = grants[group];
  if (grant === undefined || grant === 0) return false;
  const granted = grant === '*' ? allBits(group) : grant;
  if (granted === 0) return false;
  if (permission === '*') return true;
  const wanted = permissionBits(group, permission);
  if (wanted === 0) return false;
  return (granted & wanted) === wanted;
}

/** Every group with the bits a role holds, for the session response and the UI. */
export function grantsOf(role: string | null | undefined, matrix: Matrix = PERMISSIONS): Record<string, number> {
  const out: Record<string, number> = {};
  if (!role || !matrix[role]) return out;
  for (const group of GROUPS) {
    const grant = matrix[role][group];
    out[group] = grant === '*' ? allBits(group) : grant ?? 0;
  }
  return out;
}

/** Rows for the permission_grants table (seed 01). */
export function grantRows(matrix: Matrix = PERMISSIONS): { pg_role: string; pg_group: string; pg_bits: number }[] {
  return ROLES.flatMap((role) =>
    Object.entries(grantsOf(role, matrix)).map(([group, bits]) => ({ pg_role: role, pg_group: group, pg_bits: bits })),
  );
}

/** A matrix read back from permission_grants rows. */
export function matrixFromRows(rows: { pg_role: string; pg_group: string; pg_bits: number }[]): Matrix {
  const m: Matrix = {};
  for (const r of rows) (m[r.pg_role] ??= {})[r.pg_group] = r.pg_bits;
  return m;
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

/** Spec 6: only a root user imports users from CSV (and it needs entry_users create like any user creation). */
export function canImportUsers(userRole: string | undefined, matrix: Matrix = PERMISSIONS): boolean {
  return userRole === 'root' && can(userRole, 'entry_users', 'create', matrix);
}
