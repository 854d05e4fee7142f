import { describe, expect, it } from 'vitest';
import { accountRoleOf, can, canImportUsers, grantRows, grantsOf, GROUPS, matrixFromRows, PERMISSIONS, permissionBits } from '../../resources/permissions.js';

/** Spec point 6, cell by cell (plus DESIGN.md's decisions for root and admin). */
const SPEC: Record<string, Record<string, number>> = {
  root: {
    entry_accounts: 15,
    account_users: 15,
    entry_files: 15,
    account_events: 15,
    account_event_forms: 15,
    account_event_leads: 15,
    account_event_integrations: 15,
    account_forms: 15,
    account_form_elements: 15,
    account_form_styles: 15,
    account_leads: 15,
    account_lists: 15,
    account_integrations: 15,
    app_general: 15,
    entry_users: 31,
    account_members: 31,
    entry_profile: 3,
    entry_handoffs: 1,
    account_handoffs: 7,
    entry_account_users: 15,
    account_invites: 15, // DESIGN: root never below superadmin
  },
  superadmin: {
    entry_accounts: 15,
    account_users: 15,
    account_events: 15,
    account_event_forms: 15,
    account_event_leads: 15,
    account_event_integrations: 15,
    account_forms: 15,
    account_form_elements: 15,
    account_form_styles: 15,
    account_members: 15,
    account_invites: 15,
    account_leads: 15,
    account_lists: 15,
    account_integrations: 15,
    app_general: 15,
    entry_account_users: 0,
    entry_users: 0,
    entry_files: 0,
    entry_profile: 3,
    entry_handoffs: 1,
    account_handoffs: 7,
  },
  member: {
    entry_accounts: 1,
    account_events: 1,
    account_event_forms: 1,
    account_event_leads: 1,
    account_event_integrations: 1,
    account_forms: 1,
    account_form_elements: 1,
    account_integrations: 1,
    entry_account_users: 0,
    entry_users: 0,
    entry_files: 0,
    account_users: 0,
    account_invites: 0,
    account_members: 15,
    account_leads: 15,
    account_lists: 15,
    entry_profile: 3,
    entry_handoffs: 1,
    account_handoffs: 7,
    app_general: 7,
    account_form_styles: 0, // not listed for member: no bits
  },
};

describe('permission matrix (spec point 6)', () => {
  for (const [role, groups] of Object.entries(SPEC)) {
    for (const [group, bits] of Object.entries(groups)) {
      it(`${role} has ${bits} on ${group}`, () => {
        expect(grantsOf(role)[group]).toBe(bits);
        for (const bit of [1, 2, 4, 8, 16]) expect(can(role, group, bit)).toBe((bits & bit) === bit);
      });
    }
  }

  it('every role has a value for every group and nothing else', () => {
    for (const role of ['root', 'superadmin', 'admin', 'member']) {
      expect(Object.keys(grantsOf(role)).sort()).toEqual([...GROUPS].sort());
    }
  });

  it('admin is superadmin with entry_accounts read+update and no member delete (DESIGN)', () => {
    const admin = grantsOf('admin');
    const superadmin = grantsOf('superadmin');
    for (const g of GROUPS) {
      if (g === 'entry_accounts') expect(admin[g]).toBe(5);
      else if (g === 'account_members') expect(admin[g]).toBe(7);
      else expect(admin[g]).toBe(superadmin[g]);
    }
    expect(can('admin', 'entry_accounts', 'create')).toBe(false);
    expect(can('admin', 'entry_accounts', 'update')).toBe(true);
    expect(can('admin', 'account_members', 'delete')).toBe(false);
  });
});

describe('can()', () => {
  it('understands permission names per group', () => {
    expect(can('root', 'entry_users', 'change_password')).toBe(true);
    expect(can('root', 'account_members', 'set_role')).toBe(true);
    expect(can('superadmin', 'account_members', 'set_role')).toBe(false);
    expect(can('member', 'app_general', 'get_data')).toBe(true);
    expect(can('member', 'app_general', 'upload')).toBe(true);
    expect(can('member', 'app_general', 'download')).toBe(true);
    expect(can('member', 'app_general', 'export_curl')).toBe(false);
    expect(can('root', 'app_general', 'export_curl')).toBe(true);
    expect(can('member', 'entry_profile', 'update')).toBe(true);
    expect(can('member', 'entry_handoffs', 'read')).toBe(true);
    expect(can('member', 'account_handoffs', 'update')).toBe(true);
    expect(permissionBits('entry_profile', 'update')).toBe(2);
    expect(permissionBits('app_general', 'export_curl')).toBe(8);
  });

  it('is false for a missing or unknown role, group or permission', () => {
    expect(can(undefined, 'entry_users', 'read')).toBe(false);
    expect(can(null, 'entry_users', 'read')).toBe(false);
    expect(can('', 'entry_users', 'read')).toBe(false);
    expect(can('janitor', 'entry_users', 'read')).toBe(false);
    expect(can('root', undefined, 'read')).toBe(false);
    expect(can('root', 'entry_nothing', 'read')).toBe(false);
    expect(can('root', 'entry_users', undefined)).toBe(false);
    expect(can('root', 'entry_users', 'fly')).toBe(false);
    expect(can('root', 'entry_profile', 'delete')).toBe(false); // not a permission of that group
    expect(can('root', 'entry_users', 0)).toBe(false);
    expect(can('root', 'entry_users', -1)).toBe(false);
  });

  it('is false for a group with no bits', () => {
    expect(can('superadmin', 'entry_users', 'read')).toBe(false);
    expect(can('superadmin', 'entry_users', '*')).toBe(false);
    expect(can('member', 'account_form_styles', '*')).toBe(false);
  });

  it('wildcard: a "*" grant holds every bit; asking "*" means any bit', () => {
    const matrix = { ops: { entry_users: '*' as const } };
    expect(can('ops', 'entry_users', 'change_password', matrix)).toBe(true);
    expect(can('ops', 'entry_users', 31, matrix)).toBe(true);
    expect(can('ops', 'entry_accounts', 'read', matrix)).toBe(false);
    expect(can('member', 'entry_accounts', '*')).toBe(true);
  });

  it('needs every bit of a combined mask', () => {
    expect(can('member', 'entry_accounts', 1 | 2)).toBe(false);
    expect(can('root', 'entry_accounts', 1 | 2 | 4 | 8)).toBe(true);
  });

  it('round-trips through permission_grants rows', () => {
    const back = matrixFromRows(grantRows());
    for (const role of Object.keys(PERMISSIONS)) expect(grantsOf(role, back)).toEqual(grantsOf(role));
  });
});

describe('shared role rules', () => {
  it('a root user acts as root in every account; others by membership', () => {
    expect(accountRoleOf('root', undefined)).toBe('root');
    expect(accountRoleOf('root', 'member')).toBe('root');
    expect(accountRoleOf('superadmin', 'member')).toBe('member');
    expect(accountRoleOf('member', undefined)).toBeUndefined();
  });

  it('only root imports users, and only while it may create users', () => {
    expect(canImportUsers('root')).toBe(true);
    expect(canImportUsers('superadmin', { superadmin: { entry_users: 31 } })).toBe(false);
    expect(canImportUsers('root', { root: { entry_users: 1 } })).toBe(false);
    expect(canImportUsers(undefined)).toBe(false);
  });
});
