import { allowedValues, type Catalog, type CatalogColumn, type CatalogTable } from './catalog.js';
import { resourceNamed } from '../../resources/index.js';
import type { FieldKind, FieldMeta, ResourceDeclaration } from '../../resources/types.js';
import { ApiError } from '../../api/errors.js';
import { uniqueConflict } from '../../api/crud/rules.js';

/**
 * A declaration against the migrated database's catalog (test/api/schemaDrift.test.ts runs it over the registry;
 * test/api/addResource.test.ts over a resource added in a test): the declarations are what the API validates and the
 * screens show, the migrations restate them, and nothing else checks that the two agree.
 */

const TEXT = ['text', 'varchar'];
/** The column types a field of each kind may have (udt_name). */
const TYPES: Record<FieldKind, string[]> = {
  text: TEXT,
  longtext: TEXT,
  richtext: TEXT,
  colour: TEXT,
  url: TEXT,
  identifier: TEXT,
  email: TEXT,
  secret: TEXT,
  enum: TEXT,
  number: ['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'],
  boolean: ['bool'],
  // Or text holding YYYY-MM-DD under a check constraint (typeProblem).
  date: ['date'],
  datetime: ['timestamptz'],
  json: ['jsonb'],
  reference: ['uuid'],
  asset: ['uuid'],
  tags: ['_text'],
};
const INTEGER = ['int2', 'int4', 'int8'];
const DATE_TEXT_CHECK = (column: string) => `${column} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'`;
const NOW = Symbol('now()');

/** A column default as a value: 'x'::text → 'x', '{}'::jsonb → {}, true, 8000, now() → NOW; other expressions as written. */
function defaultValue(column: CatalogColumn): unknown {
  const d = column.default;
  if (d === null) return undefined;
  if (/^(now\(\)|CURRENT_TIMESTAMP)$/i.test(d)) return NOW;
  if (d === 'true' || d === 'false') return d === 'true';
  if (/^\(?-?\d+(\.\d+)?\)?$/.test(d)) return Number(d.replace(/[()]/g, ''));
  const literal = /^'((?:[^']|'')*)'::([a-z ]+(?:\[\])?)$/.exec(d);
  if (literal) {
    const text = literal[1].replace(/''/g, "'");
    if (literal[2] === 'jsonb' || literal[2] === 'json') return JSON.parse(text);
    if (/^(integer|bigint|numeric|smallint)$/.test(literal[2])) return Number(text);
    // An array literal of plain values ('{}'::text[], '{a,b}'::text[]).
    if (literal[2].endsWith('[]')) return text === '{}' ? [] : text.replace(/^\{|\}$/g, '').split(',');
    return text;
  }
  return `expression ${d}`;
}

const show = (v: unknown) => (v === NOW ? 'now()' : v === undefined ? 'none' : JSON.stringify(v));

/** Every column a declaration names, with where it names it. */
function namedColumns(decl: ResourceDeclaration): Map<string, string[]> {
  const named = new Map<string, string[]>();
  const add = (where: string, columns: (string | undefined)[]) => {
    for (const c of columns) if (c) named.set(c, [...(named.get(c) ?? []), where]);
  };
  add('primaryKey', [decl.primaryKey]);
  add('accountKey', [decl.accountKey]);
  add('fields', Object.keys(decl.fields ?? {}));
  add('search', decl.search);
  add('sortable', decl.sortable);
  add('defaultSort', [decl.defaultSort.field]);
  add('filterable', decl.filterable);
  add(
    'ranges',
    (decl.ranges ?? []).map((r) => r.field),
  );
  add('listColumns', decl.listColumns);
  add('hidden', decl.hidden ?? []);
  add('order', decl.order ? [decl.order.field, ...decl.order.parent] : []);
  add('title', [decl.title]);
  add(
    'unique',
    (decl.unique ?? []).map((u) => u.field),
  );
  add('tieBreak', [decl.tieBreak]);
  return named;
}

function typeProblem(meta: FieldMeta, column: CatalogColumn, table: CatalogTable): string | undefined {
  const allowed = meta.kind === 'number' && meta.integer ? INTEGER : TYPES[meta.kind];
  if (allowed.includes(column.type)) return undefined;
  // An id the server writes and a client only reads (assets' as_fileid) is shown as text.
  if (meta.kind === 'text' && meta.readOnly && column.type === 'uuid') return undefined;
  // A date kept as YYYY-MM-DD text (events: both drivers hand it back as written), held to that form by a check.
  if (meta.kind === 'date' && TEXT.includes(column.type) && table.constraints.some((c) => c.type === 'c' && c.definition.includes(DATE_TEXT_CHECK(column.name)))) return undefined;
  return `is a ${meta.kind}${meta.integer ? ' (integer)' : ''} field but its column is ${column.type} (expected ${allowed.join(' or ')}${meta.kind === 'date' ? ', or text under a YYYY-MM-DD check' : ''})`;
}

/** The trash marker of a declaration (api/models/scope.ts deletedAtOf). */
const deletedAt = (decl: ResourceDeclaration) => `${decl.primaryKey.replace(/_id$/, '')}_deleted_at`;
/** A partial index's predicate as PostgreSQL prints it: `(<column> IS NULL)`. */
const isLiveOnly = (predicate: string | null, column: string) => !!predicate && predicate.replace(/[()\s]/g, '').toLowerCase() === `${column}isnull`;

/** What does not agree between one declaration and the database, each naming the resource, the field and the mismatch. */
export function driftOf(decl: ResourceDeclaration, catalog: Catalog): string[] {
  const problems: string[] = [];
  const say = (field: string, text: string) => problems.push(`${decl.name}.${field}: ${text}`);
  const own = catalog.get(decl.table);
  if (!own) return [`${decl.name}: its table ${decl.table} does not exist`];

  /** The table holding a column: the declaration's own, or the one of the resource it is joined from. */
  const tableOf = (column: string): CatalogTable | undefined => {
    const from = decl.joined?.[column];
    if (!from) return own;
    const target = resourceNamed(from);
    if (!target) return undefined;
    return catalog.get(target.table);
  };

  for (const [column, where] of namedColumns(decl)) {
    const from = decl.joined?.[column];
    const table = tableOf(column);
    if (!table) say(column, `is joined from ${from}, which is not a registered resource with a table`);
    else if (!table.columns.has(column)) say(column, `is named by the declaration (${where.join(', ')}) but ${table.name} has no such column`);
  }

  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    const table = tableOf(field);
    const column = table?.columns.get(field);
    if (!table || !column) continue; // said above
    const type = typeProblem(meta, column, table);
    if (type) say(field, type);
    // A joined column is the other resource's: its nullability and default are declared there.
    if (meta.joined) continue;

    // An ordered child's position is numbered by the API when left out (the next one of its parent).
    const ordered = decl.order?.field === field;
    const declaredDefault = meta.filled === 'now' ? NOW : meta.default;
    const notNull = !!meta.required || declaredDefault !== undefined || !!meta.filled || ordered;
    const why = meta.required
      ? 'required'
      : declaredDefault !== undefined
        ? `declared with default ${show(declaredDefault)}`
        : ordered
          ? 'the order field'
          : `filled by the ${meta.filled}`;
    if (notNull && column.nullable) say(field, `is ${why} but its column ${decl.table}.${field} is nullable`);
    if (!notNull && !column.nullable) say(field, `is optional without a default but its column ${decl.table}.${field} is NOT NULL`);
    const actualDefault = defaultValue(column);
    // The order column's own default (0) is only what an insert outside the API gets.
    if (!ordered && (JSON.stringify(actualDefault) !== JSON.stringify(declaredDefault) || (actualDefault === NOW) !== (declaredDefault === NOW)))
      say(field, `declares default ${show(declaredDefault)} but its column defaults to ${show(actualDefault)}${column.default ? ` (${column.default})` : ''}`);

    // "Any of these tags" (ld_tags && array[...]) is served by a GIN index on the column.
    if (meta.kind === 'tags' && !table.indexes.some((i) => /using gin/i.test(i.definition) && i.keys.some((k) => k.expression === field)))
      say(field, `is a tags field but ${table.name} has no GIN index on it to serve its "any of" filter`);

    if (meta.kind === 'enum') {
      const options = [...(meta.options ?? [])].sort();
      const checks = table.constraints
        .filter((c) => c.type === 'c')
        .map((c) => allowedValues(c.definition, field))
        .filter((v) => v !== undefined);
      if (!checks.length) say(field, `is an enum of [${options.join(', ')}] but no check constraint of ${decl.table} limits the column to its options`);
      for (const allowed of checks) {
        const sorted = [...allowed].sort();
        if (JSON.stringify(sorted) === JSON.stringify(options)) continue;
        const onlyDeclared = options.filter((o) => !sorted.includes(o));
        const onlyDb = sorted.filter((o) => !options.includes(o));
        say(
          field,
          `enum options [${options.join(', ')}] differ from the check constraint's [${sorted.join(', ')}]` +
            `${onlyDeclared.length ? `; declared only: ${onlyDeclared.join(', ')}` : ''}${onlyDb.length ? `; database only: ${onlyDb.join(', ')}` : ''}`,
        );
      }
    }
  }

  // The prefix timestamps a declaration sorts by: set by the database on insert.
  for (const column of new Set(decl.sortable.filter((c) => /_(created|updated)_at$/.test(c)))) {
    const c = tableOf(column)?.columns.get(column);
    if (c && (c.type !== 'timestamptz' || c.nullable || defaultValue(c) !== NOW))
      say(
        column,
        `is a record timestamp but its column is ${c.type}${c.nullable ? ' nullable' : ' NOT NULL'} default ${c.default ?? 'none'} (expected timestamptz NOT NULL default now())`,
      );
  }

  const pk = own.constraints.find((c) => c.type === 'p');
  if (!pk || pk.columns.join() !== decl.primaryKey) say(decl.primaryKey, `is the primary key but ${decl.table}'s primary key is (${pk?.columns.join(', ') ?? 'none'})`);
  if (own.columns.get(decl.primaryKey) && own.columns.get(decl.primaryKey)!.type !== 'uuid') say(decl.primaryKey, `is the primary key but is not a uuid`);

  if (decl.tenancy === 'account') {
    const key = decl.accountKey;
    const column = key ? own.columns.get(key) : undefined;
    if (!key) problems.push(`${decl.name}: an account resource without an accountKey`);
    else if (column) {
      if (column.type !== 'uuid' || column.nullable) say(key, `is the account key but its column is ${column.type}${column.nullable ? ' nullable' : ''} (expected uuid NOT NULL)`);
      const fk = own.constraints.find((c) => c.type === 'f' && c.columns.join() === key);
      if (!fk || fk.references!.table !== 'accounts' || fk.references!.columns.join() !== 'a_id' || fk.references!.onDelete !== 'c')
        say(key, `is the account key but has no foreign key to accounts(a_id) on delete cascade${fk ? ` (${fk.definition})` : ''}`);
      // Every query of the resource is scoped to one account; a cascade from accounts looks rows up by it too.
      if (!own.indexes.some((i) => !i.predicate && i.keys[0]?.expression === key)) say(key, `is the account key but no index of ${decl.table} starts with it`);
    }
  }

  for (const u of decl.unique ?? []) {
    const name = `${decl.table}_${u.field}_unique`;
    const index = own.indexes.find((i) => i.name === name);
    if (!index || !index.unique) say(u.field, `is declared unique but ${decl.table} has no unique index ${name}`);
    else if (!index.keys.some((k) => k.expression === u.field || k.expression === `lower(${u.field})`))
      say(u.field, `is declared unique but its index ${name} does not cover it (${index.definition})`);
    // A record in the trash gives its name up (a new record may take it; its restore answers 409): the index holds live
    // rows only. Any other partial index would let duplicates through unseen.
    else if (decl.trash ? !isLiveOnly(index.predicate, deletedAt(decl)) : index.predicate)
      say(
        u.field,
        `is declared unique but its index ${name} is ${index.predicate ? `partial (where ${index.predicate})` : 'whole'}${decl.trash ? `; a trash resource's must be where ${deletedAt(decl)} is null` : ''}`,
      );
    // What the API answers when that index refuses a write.
    const answer = uniqueConflict(decl, { code: '23505', constraint: name });
    const code = u.code ?? 'name_taken';
    if (!(answer instanceof ApiError) || answer.status !== 409 || answer.code !== code || !answer.fields?.[u.field])
      say(u.field, `a violation of ${name} should answer 409 ${code} on the field, answers ${answer ? `${answer.status} ${answer.code}` : 'nothing (not mapped)'}`);
  }

  // The trash: a nullable timestamptz marking a deleted record, and an index of the trashed rows per account.
  if (decl.trash) {
    const column = own.columns.get(deletedAt(decl));
    if (!column) say(deletedAt(decl), `is the trash marker of a trash resource but ${decl.table} has no such column`);
    else if (column.type !== 'timestamptz' || !column.nullable || column.default !== null)
      say(
        deletedAt(decl),
        `is the trash marker but its column is ${column.type}${column.nullable ? '' : ' NOT NULL'} default ${column.default ?? 'none'} (expected timestamptz null, no default)`,
      );
    if (decl.accountKey && !own.indexes.some((i) => i.keys[0]?.expression === decl.accountKey && i.keys.some((k) => k.expression === deletedAt(decl))))
      say(deletedAt(decl), `is the trash marker but no index of ${decl.table} serves an account's trash (${decl.accountKey}, ${deletedAt(decl)})`);
  }

  // filter.q: lower(column) like 'prefix%', served by a lower(column) text_pattern_ops index (after the account key).
  for (const column of decl.search) {
    const table = tableOf(column);
    if (!table?.columns.has(column)) continue; // said above
    const scope = table === own && decl.accountKey ? [decl.accountKey] : [];
    const serves = table.indexes.some((i) => {
      if (i.predicate) return false;
      const last = i.keys[i.keys.length - 1];
      const lead = i.keys.slice(0, -1).map((k) => k.expression);
      return last?.expression === `lower(${column})` && /^(text|varchar)_pattern_ops$/.test(last.opclass) && lead.every((k) => scope.includes(k));
    });
    if (!serves) say(column, `is a search field but ${table.name} has no index on lower(${column}) text_pattern_ops to serve the prefix search`);
  }
  return problems;
}
