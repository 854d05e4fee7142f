import type { Knex } from 'knex';
import { accountIndex, dropPrefixSearchIndex, enumCheck, enumCheckName, prefixSearchIndex } from '../api/db/migrationHelpers.js';

/**
 * What test/api/schemaDrift.test.ts found the earlier migrations left out against the resource declarations:
 *
 * - the prefix-search index of every search column that had none (a list's filter.q read the whole table, or the
 *   whole account); on account tables after the account id, like leads' and assets';
 * - an index starting with the account id on the tables that had none (every query of an account resource is scoped
 *   to one account, and an account's delete cascades through them): event_forms, event_integrations, handoffs (the
 *   others get theirs from a search index above);
 * - the check constraints of three enums the API alone enforced: invites.iv_role, form_elements.fe_type,
 *   integrations.in_type (options as the declarations have them today).
 */
const SEARCH: [table: string, account: string | undefined, columns: string[]][] = [
  ['folders', undefined, ['fo_title']],
  ['files', undefined, ['fs_filename']],
  ['invites', 'iv_accountid', ['iv_first_name', 'iv_last_name']],
  ['events', 'ev_accountid', ['ev_name']],
  ['forms', 'f_accountid', ['f_name']],
  ['form_elements', 'fe_accountid', ['fe_title', 'fe_name']],
  ['lists', 'l_accountid', ['l_name']],
  ['list_items', 'li_accountid', ['li_title', 'li_value']],
  ['form_styles', 'st_accountid', ['st_title']],
  ['integrations', 'in_accountid', ['in_title', 'in_name']],
  ['mail_templates', 'mt_accountid', ['mt_name', 'mt_subject']],
  ['assets', 'as_accountid', ['as_name']],
  ['collections', 'co_accountid', ['co_title', 'co_name']],
  ['carousels', 'c_accountid', ['c_title', 'c_name']],
  ['variants', 'v_accountid', ['v_title', 'v_name']],
  ['slides', 'sl_accountid', ['sl_title']],
  ['layers', 'ly_accountid', ['ly_title']],
  ['carousel_groups', 'cg_accountid', ['cg_title']],
  ['carousel_codes', 'cc_accountid', ['cc_title', 'cc_code']],
];

const ACCOUNT_INDEXES: [table: string, prefix: string][] = [
  ['event_forms', 'ef'],
  ['event_integrations', 'ei'],
  ['handoffs', 'ho'],
];

const ENUMS: [table: string, column: string, options: string[]][] = [
  ['invites', 'iv_role', ['root', 'superadmin', 'admin', 'member']],
  [
    'form_elements',
    'fe_type',
    [
      'text',
      'textarea',
      'date_selector_days',
      'choice_chips_single',
      'choice_chips_multiple',
      'checkbox',
      'checkbox_tree',
      'radio_tree',
      'selectbox',
      'toggle',
      'slider',
      'picker',
    ],
  ],
  ['integrations', 'in_type', ['badge_scan']],
];

export async function up(knex: Knex): Promise<void> {
  for (const [table, account, columns] of SEARCH) for (const column of columns) await prefixSearchIndex(knex, table, column, account);
  for (const [table, prefix] of ACCOUNT_INDEXES) await knex.schema.alterTable(table, (t) => accountIndex(t, table, prefix));
  for (const [table, column, options] of ENUMS) await knex.schema.alterTable(table, (t) => enumCheck(t, table, column, options));
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of ENUMS) await knex.schema.alterTable(table, (t) => t.dropChecks([enumCheckName(table, column)]));
  for (const [table] of ACCOUNT_INDEXES) await knex.raw('drop index ??', [`${table}_account`]);
  for (const [table, , columns] of SEARCH) for (const column of columns) await dropPrefixSearchIndex(knex, table, column);
}
