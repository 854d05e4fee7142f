import type { z } from 'zod';
import type { RoleGrants } from './roles.js';

/**
 * The icons a resource may name for its menu item (admin/src/console/icons.tsx draws each; naming one keeps the
 * declaration headless). Material icon names.
 */
export const RESOURCE_ICONS = [
  'list',
  'group',
  'forward_to_inbox',
  'event',
  'assignment',
  'account_tree',
  'palette',
  'extension',
  'email',
  'settings',
  'contact_page',
  'swap_horiz',
  'perm_media',
  'collections',
  'view_carousel',
  'workspaces',
  'qr_code',
  'business',
  'person',
  'folder',
  'star',
  'handshake',
  'schedule',
  'calendar_month',
  'chat',
  'forum',
  'key',
  'bookmark',
  'label',
  'campaign',
  'storefront',
  'badge',
  'meeting_room',
  'tune',
  'description',
  'link',
  'image',
  'monitor',
  'history',
] as const;
export type ResourceIcon = (typeof RESOURCE_ICONS)[number];

/**
 * A resource's words in one language: its name (singular and plural, i18next's _one/_other), each field's label and
 * each enum option's label. The console's i18n reads them as resources.<name>.*.
 */
export interface ResourceLabels {
  name_one: string;
  name_other: string;
  fields: Record<string, string>;
  options?: Record<string, Record<string, string>>;
}

/**
 * What a field is, for both sides: the API derives its zod rule from it (resources/define.ts) and the admin picks the
 * input, the list column and the filter from one table keyed by kind (admin/src/generated/kinds.tsx).
 */
export type FieldKind =
  | 'text'
  | 'longtext'
  /** HTML of an allow-list (resources/richtext.ts), sanitised by the API on every write; at most 100 KB. */
  | 'richtext'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'colour'
  | 'url'
  | 'email'
  | 'identifier'
  | 'enum'
  | 'reference'
  | 'asset'
  | 'secret'
  | 'json'
  /**
   * A set of identifiers (IDENTIFIER_RE), each once, at most `max` (default 20): a text[] column with a GIN index; its
   * list filter means "any of" (filter.<field>: a value or a list; rows holding at least one of them).
   */
  | 'tags';

export interface FieldMeta {
  kind: FieldKind;
  /** enum: the allowed values (labels: resources.<name>.options.<field>.<value>). */
  options?: readonly string[];
  /** reference/asset: the resource the id points to (same account), and the column it matches (default its key). */
  reference?: string;
  referenceKey?: string;
  /** asset: the kinds of asset it may name (image, video, audio, pdf, font: resources/assets.ts assetKind), for the picker; any when unset. */
  assetKinds?: readonly string[];
  /** The field names the record's parent (a child resource filtered by it); a parent from elsewhere answers 404. */
  parent?: boolean;
  required?: boolean;
  /** Message key when a required field is missing (default error_required). */
  requiredMessage?: string;
  /** Shown in the generated list. */
  list?: boolean;
  /** Offered as a list filter (equality). The API filters by every reference and parent field as well. */
  filter?: boolean;
  /**
   * date/datetime/number: also a range filter under these two names (filter.<from>, filter.<to>, each inclusive). A value
   * is a date YYYY-MM-DD (for a datetime: that whole day, UTC) or, for a datetime, an ISO 8601 time; for a number, a
   * number (or its text).
   */
  range?: { from: string; to: string };
  /** The list may be sorted by it. */
  sort?: boolean;
  /** Sent by the server, never accepted from a client (e.g. a status the server keeps). */
  readOnly?: boolean;
  /** Accepted on create only. */
  createOnly?: boolean;
  /** Not shown in the generated form (set by a hand-written screen or the server). */
  formHidden?: boolean;
  /** Default on create. */
  default?: unknown;
  /**
   * Left out on create, it gets a value all the same (its column is NOT NULL): 'now' the time of the insert (the
   * column's default now()), 'server' one the API works out (a list item's value from its title).
   */
  filled?: 'now' | 'server';
  /**
   * Not a column of the resource's table: the resource's query joins it from this resource's table (members: the
   * user's names and e-mail from users), which owns its nullability and default.
   */
  joined?: string;
  /**
   * text/longtext/secret: maximum length; richtext: maximum UTF-8 bytes (default and at most 100 KB); number: bounds;
   * tags: most values (default 20).
   */
  max?: number;
  min?: number;
  integer?: boolean;
  /** Shown in the form only while another field has one of these values (e.g. the access code when restricted). */
  showWhen?: { field: string; values: readonly unknown[] };
  /** i18n key of the label (default resources.<name>.fields.<field>). */
  label?: string;
  /** A list's bulk update may change it (POST …/{resource}/bulk, platform-and-flows.md 1). */
  bulk?: boolean;
  /**
   * reference to a trash resource: while the record it names is in the trash this one is hidden too (its row would go
   * with it on a purge: a cascading foreign key), e.g. a lead's event. A `parent` field implies it.
   */
  trashWith?: boolean;
}

export type Fields = Record<string, FieldMeta>;

/** The kinds a range filter bounds (FieldMeta.range). */
export type RangeKind = 'date' | 'datetime' | 'number';
export const RANGE_KINDS: readonly FieldKind[] = ['date', 'datetime', 'number'];

/** One declaration per entity: what the API registry and the admin both read. */
export interface ResourceDeclaration<Create extends z.ZodTypeAny = z.ZodTypeAny, Update extends z.ZodTypeAny = z.ZodTypeAny> {
  /** Plural name: REST path segment, react-admin resource, i18n key. */
  name: string;
  /** The REST path segment when it is not the name (the entry admin's members: accountUsers at /accounts/{a}/users). */
  path?: string;
  table: string;
  primaryKey: string;
  /** Permission group (resources/permissions.ts). */
  group: string;
  /**
   * The group's default grant per role, declared by one resource of the group (the others name only the group). A
   * database that lacks a (role, group) row gets this at start; rows an operator changed are kept.
   */
  grants?: RoleGrants;
  /** The menu icon (default 'list'). */
  icon?: ResourceIcon;
  /** false: no menu item of its own (saved views: managed from every list's Views menu). */
  menu?: false;
  /** English and Dutch labels (the console's resources.<name>.*). */
  labels?: { en: ResourceLabels; nl: ResourceLabels };
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
  /** Range filters: filter.<from> and filter.<to> bound `field` (FieldMeta.range). */
  ranges?: { field: string; kind: RangeKind; from: string; to: string }[];
  /** Columns shown in the admin list. */
  listColumns: string[];
  /** Columns never sent to a client. */
  hidden?: string[];
  /** Columns the resource's query joins from another resource's table: column → that resource's name. */
  joined?: Record<string, string>;
  /** Field metadata (account console resources): drives the schemas, the generic API and the generated screens. */
  fields?: Fields;
  /** Ordered children: the order column and the columns naming one parent (PUT …/order reorders one parent's set). */
  order?: { field: string; parent: string[] };
  /** The field a record is shown by (react-admin recordRepresentation). */
  title?: string;
  /** A record in words when one field is not enough (a member: names and e-mail); default the title field. */
  represent?: (record: Record<string, unknown>) => string;
  /** Rules across fields, on the whole record (stored values merged with the change): field → message key. */
  check?: (record: Record<string, unknown>) => Record<string, string> | undefined;
  /** Fields whose unique index (named <table>_<field>_unique) answers 409 with the field; code default name_taken. */
  unique?: { field: string; code?: string }[];
  /**
   * Contract error codes a validation failure answers with (account-console.md, e.g. event_title_required): when a
   * field's message key is error_<code> for one of these, the 400's code is that code instead of validation_failed.
   */
  codes?: string[];
  /** One record per account (settings): GET/PUT on the resource path itself. */
  singleton?: boolean;
  /**
   * Who changed what and when, per record, with revert (GET …/{id}/history, POST …/{id}/history/{h_id}/revert): the
   * table's history trigger (api/db/migrationHelpers.ts historyTrigger) writes it in the same transaction as the change.
   */
  history?: boolean;
  /**
   * A delete moves the record to the trash (its `<prefix>_deleted_at` set): hidden from every list, get and reference
   * (scoped() leaves it out), listed by GET …/trash, brought back by POST …/{id}/restore, removed for good (with its
   * stored files) by DELETE …/{id}/purge or TRASH_DAYS after the delete (api/crud/trash.ts).
   */
  trash?: boolean;
  /**
   * For tables too large to count on every page (leads): a list's total is counted exactly up to this many rows;
   * past it the total is the database planner's estimate (never below this + 1) and the answer carries
   * X-Total-Estimated: true, so a screen can say "about". A page past an estimated end is counted exactly.
   */
  exactTotalUpTo?: number;
  /**
   * A column that orders rows the sort leaves equal, before the primary key and in the sort's direction (leads:
   * ld_captured_at), so one index on (<account>, <sorted column>, <tieBreak>) serves a page of that sort. Without it
   * ties are ordered by the primary key.
   */
  tieBreak?: string;
}
