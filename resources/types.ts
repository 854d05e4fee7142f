import type { z } from 'zod';

/** One declaration per entity: what the API registry and the admin both read. */
export interface ResourceDeclaration<Create extends z.ZodTypeAny = z.ZodTypeAny, Update extends z.ZodTypeAny = z.ZodTypeAny> {
  /** Plural name: REST path segment, react-admin resource, i18n key. */
  name: string;
  table: string;
  primaryKey: string;
  /** Permission group (resources/permissions.ts). */
  group: string;
  tenancy: 'global' | 'account';
  /** Column holding the account id for account-scoped resources. */
  accountKey?: string;
  /** Operations and the permission each needs; an operation without one is refused at start-up. */
  operations: Partial<Record<'list' | 'get' | 'create' | 'update' | 'delete', string>>;
  create: Create;
  update: Update;
  /** Columns searched by filter.q (case-insensitive prefix). */
  search: string[];
  /** Columns a list may be sorted by. */
  sortable: string[];
  defaultSort: { field: string; order: 'ASC' | 'DESC' };
  /** Columns a list may be filtered by for equality. */
  filterable: string[];
  /** Columns shown in the admin list. */
  listColumns: string[];
  /** Columns never sent to a client. */
  hidden?: string[];
}
