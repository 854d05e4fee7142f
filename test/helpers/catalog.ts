import type { Knex } from 'knex';

/** A table as the database has it (information_schema and pg_catalog), the same on PGlite and PostgreSQL. */
export interface CatalogColumn {
  name: string;
  /** udt_name: text, varchar, int4, int8, numeric, float8, bool, date, timestamptz, jsonb, uuid, … */
  type: string;
  nullable: boolean;
  /** The default as the catalog prints it ('member'::text, now(), 0, …), or null. */
  default: string | null;
}

export interface CatalogConstraint {
  name: string;
  /** p primary key, f foreign key, u unique, c check. */
  type: 'p' | 'f' | 'u' | 'c';
  columns: string[];
  /** pg_get_constraintdef. */
  definition: string;
  /** Foreign keys: the referenced table, its columns, and the on-delete action (a no action, c cascade, n set null, r restrict). */
  references?: { table: string; columns: string[]; onDelete: string };
}

export interface CatalogIndexKey {
  /** A column name, or an expression such as lower(f_title). */
  expression: string;
  /** The operator class, e.g. text_ops or text_pattern_ops. */
  opclass: string;
}

export interface CatalogIndex {
  name: string;
  unique: boolean;
  primary: boolean;
  keys: CatalogIndexKey[];
  /** The WHERE of a partial index, or null. */
  predicate: string | null;
  /** pg_get_indexdef, with the schema left out of the table name. */
  definition: string;
}

export interface CatalogTable {
  name: string;
  columns: Map<string, CatalogColumn>;
  constraints: CatalogConstraint[];
  indexes: CatalogIndex[];
}

export type Catalog = Map<string, CatalogTable>;

const rowsOf = <T>(result: { rows: T[] }): T[] => result.rows;

/** Every table of a schema (default the current one) with its columns, constraints and indexes. */
export async function readCatalog(db: Knex, schema?: string): Promise<Catalog> {
  const ns = schema ?? rowsOf<{ s: string }>(await db.raw('select current_schema() as s'))[0].s;
  const catalog: Catalog = new Map();
  const table = (name: string) => {
    let t = catalog.get(name);
    if (!t) catalog.set(name, (t = { name, columns: new Map(), constraints: [], indexes: [] }));
    return t;
  };

  const columns = rowsOf<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null }>(
    await db.raw(
      `select table_name, column_name, udt_name, is_nullable, column_default from information_schema.columns
        where table_schema = ? order by table_name, ordinal_position`,
      [ns],
    ),
  );
  for (const c of columns) table(c.table_name).columns.set(c.column_name, { name: c.column_name, type: c.udt_name, nullable: c.is_nullable === 'YES', default: c.column_default });

  const constraints = rowsOf<{
    table_name: string;
    name: string;
    type: CatalogConstraint['type'];
    columns: string[] | null;
    definition: string;
    ref_table: string | null;
    ref_columns: string[] | null;
    on_delete: string;
  }>(
    await db.raw(
      `select rel.relname as table_name, con.conname as name, con.contype as type, pg_get_constraintdef(con.oid) as definition,
              array(select att.attname::text from unnest(con.conkey) with ordinality k(attnum, ord)
                      join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.attnum order by k.ord) as columns,
              ref.relname as ref_table,
              array(select att.attname::text from unnest(con.confkey) with ordinality k(attnum, ord)
                      join pg_attribute att on att.attrelid = con.confrelid and att.attnum = k.attnum order by k.ord) as ref_columns,
              con.confdeltype as on_delete
         from pg_constraint con
         join pg_class rel on rel.oid = con.conrelid
         join pg_namespace n on n.oid = rel.relnamespace
         left join pg_class ref on ref.oid = con.confrelid
        where n.nspname = ? and con.contype in ('p', 'f', 'u', 'c')
        order by rel.relname, con.conname`,
      [ns],
    ),
  );
  for (const c of constraints) {
    table(c.table_name).constraints.push({
      name: c.name,
      type: c.type,
      columns: c.columns ?? [],
      definition: c.definition,
      ...(c.type === 'f' ? { references: { table: c.ref_table!, columns: c.ref_columns ?? [], onDelete: c.on_delete } } : {}),
    });
  }

  const indexes = rowsOf<{ table_name: string; name: string; unique: boolean; primary: boolean; predicate: string | null; definition: string; keys: number }>(
    await db.raw(
      `select rel.relname as table_name, idx.relname as name, i.indisunique as unique, i.indisprimary as primary,
              pg_get_expr(i.indpred, i.indrelid) as predicate, pg_get_indexdef(i.indexrelid) as definition, i.indnkeyatts as keys
         from pg_index i
         join pg_class idx on idx.oid = i.indexrelid
         join pg_class rel on rel.oid = i.indrelid
         join pg_namespace n on n.oid = rel.relnamespace
        where n.nspname = ?
        order by rel.relname, idx.relname`,
      [ns],
    ),
  );
  const keys = rowsOf<{ name: string; ord: number; expression: string; opclass: string }>(
    await db.raw(
      `select idx.relname as name, k.ord::int as ord, pg_get_indexdef(i.indexrelid, k.ord::int, true) as expression, oc.opcname as opclass
         from pg_index i
         join pg_class idx on idx.oid = i.indexrelid
         join pg_namespace n on n.oid = idx.relnamespace
         cross join lateral unnest(i.indclass::oid[]) with ordinality k(opc, ord)
         join pg_opclass oc on oc.oid = k.opc
        where n.nspname = ?
        order by idx.relname, k.ord`,
      [ns],
    ),
  );
  for (const ix of indexes) {
    table(ix.table_name).indexes.push({
      name: ix.name,
      unique: ix.unique,
      primary: ix.primary,
      predicate: ix.predicate,
      definition: ix.definition.replace(` ON ${ns}.`, ' ON ').replace(` ON "${ns}".`, ' ON '),
      keys: keys.filter((k) => k.name === ix.name && k.ord <= ix.keys).map((k) => ({ expression: k.expression, opclass: k.opclass })),
    });
  }
  return catalog;
}

/**
 * The values a check constraint allows for a column: `col in ('a','b')` (printed by the catalog as
 * `col = ANY (ARRAY['a'::text, 'b'::text])`) or `col = 'a'`. Undefined when the constraint is not such a list.
 */
export function allowedValues(definition: string, column: string): string[] | undefined {
  const col = `\\(*"?${column}"?\\)*(?:::text)?`;
  const any = new RegExp(`${col} = ANY \\(\\(?ARRAY\\[(.*?)\\]\\)?`).exec(definition);
  const literals = (s: string) => [...s.matchAll(/'((?:[^']|'')*)'(?:::[a-z ]+)?/g)].map((m) => m[1].replace(/''/g, "'"));
  if (any) return literals(any[1]);
  const one = new RegExp(`${col} = ('(?:[^']|'')*'(?:::[a-z ]+)?)\\)*$`).exec(definition.replace(/^CHECK \(|\)$/g, ''));
  return one ? literals(one[1]) : undefined;
}
