import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, describeEachDb, type TestDb } from '../helpers/db.js';
import { allowedValues, readCatalog, type Catalog } from '../helpers/catalog.js';
import { driftOf } from '../helpers/drift.js';
import { RESOURCES } from '../../resources/index.js';
import type { ResourceDeclaration } from '../../resources/types.js';

/**
 * Every declaration of the registry against the migrated database (test/helpers/drift.ts): columns, types by kind,
 * nullability, defaults, enum checks, unique indexes and their 409 codes, prefix-search indexes, primary and account keys.
 */
describeEachDb('the schema agrees with the resource declarations', (kind) => {
  let t: TestDb;
  let catalog: Catalog;
  beforeAll(async () => {
    t = await createTestDb(kind);
    catalog = await readCatalog(t.db);
  });
  afterAll(() => t?.drop());

  it('reads the catalog (tables, columns, check constraints, indexes)', () => {
    // The checks below mean nothing if the catalog came back empty or unparsed.
    const events = catalog.get('events')!;
    expect(events.columns.get('ev_title')).toMatchObject({ type: 'text', nullable: false });
    expect(allowedValues(events.constraints.find((c) => c.name === 'events_access_type_check')!.definition, 'ev_access_type')).toEqual(['open', 'closed', 'restricted']);
    expect(catalog.get('forms')!.indexes.find((i) => i.name === 'forms_f_title_prefix')!.keys).toEqual([{ expression: 'lower(f_title)', opclass: 'text_pattern_ops' }]);
  });

  for (const decl of RESOURCES) {
    it(`${decl.name} (${decl.table})`, () => {
      const problems = driftOf(decl, catalog);
      expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
    });
  }

  it('says what a declaration that does not match its table gets wrong', () => {
    const events = RESOURCES.find((d) => d.name === 'events')!;
    const f = events.fields!;
    const wrong: ResourceDeclaration = {
      ...events,
      fields: {
        ...f,
        ev_access_type: { ...f.ev_access_type, options: [...f.ev_access_type.options!, 'invited'] },
        ev_title: { ...f.ev_title, required: false },
        ev_is_enabled: { ...f.ev_is_enabled, default: false },
        ev_external_id: { ...f.ev_external_id, kind: 'number' },
        ev_no_such_column: { kind: 'text' },
      },
      search: [...events.search, 'ev_external_id'],
      unique: [{ field: 'ev_title' }],
    };
    const problems = driftOf(wrong, catalog);
    expect(problems).toEqual(
      expect.arrayContaining([
        "events.ev_access_type: enum options [closed, invited, open, restricted] differ from the check constraint's [closed, open, restricted]; declared only: invited",
        'events.ev_title: is optional without a default but its column events.ev_title is NOT NULL',
        'events.ev_is_enabled: declares default false but its column defaults to true (true)',
        'events.ev_external_id: is a number field but its column is text (expected int2 or int4 or int8 or numeric or float4 or float8)',
        'events.ev_no_such_column: is named by the declaration (fields) but events has no such column',
        'events.ev_external_id: is a search field but events has no index on lower(ev_external_id) text_pattern_ops to serve the prefix search',
        'events.ev_title: is declared unique but events has no unique index events_ev_title_unique',
      ]),
    );
    expect(problems).toHaveLength(7);
  });
});
