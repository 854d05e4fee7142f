import { describe, expect, it } from 'vitest';
import { defineAccountResource, schemaFor } from '../../resources/define';
import { cellOf } from '../../api/crud/export';
import { fieldSchema, filterSchemaOf } from '../../api/openapi/schemas';
import { parseFilter } from '../../api/crud/list';

/** The `tags` field kind and number ranges in the generic layer, on a resource declared here (as a later one would be). */
const sponsors = defineAccountResource({
  name: 'sponsors',
  table: 'sponsors',
  prefix: 'sp',
  group: 'account_sponsors',
  fields: {
    sp_name: { kind: 'text', required: true, list: true },
    sp_tags: { kind: 'tags', max: 3, default: [], list: true, filter: true, bulk: true },
    sp_level: { kind: 'number', integer: true, min: 1, max: 9, list: true, range: { from: 'level_from', to: 'level_to' } },
  },
});

describe('the tags kind', () => {
  const create = schemaFor(sponsors.fields!, 'create');
  const tagsOf = (body: unknown) => (create.parse(body) as { sp_tags: unknown }).sp_tags;
  it('accepts identifiers, each once, at most max; trims; null and missing give the default []', () => {
    expect(tagsOf({ sp_name: 'Acme', sp_tags: [' gold ', 'eu'] })).toEqual(['gold', 'eu']);
    expect(tagsOf({ sp_name: 'Acme' })).toEqual([]);
    expect(tagsOf({ sp_name: 'Acme', sp_tags: null })).toEqual([]);
  });
  it.each([
    [['Gold'], 'error_tag_invalid'],
    [['a', 'b', 'c', 'd'], 'error_too_many_tags'],
    [['a', 'a'], 'error_tags_duplicate'],
    ['gold', 'error_invalid_value'],
  ])('refuses %j with %s on the field itself', (tags, key) => {
    const res = create.safeParse({ sp_name: 'Acme', sp_tags: tags });
    expect(res.success).toBe(false);
    expect(res.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['sp_tags', key]]);
  });
  it('filters "any of", exports joined by ", ", and says so in OpenAPI', () => {
    expect(parseFilter({ sp_tags: ['gold', 'eu', 'gold'] }, sponsors, 'sp_id').anyOf).toEqual({ sp_tags: ['gold', 'eu'] });
    expect(parseFilter({ sp_tags: 'gold' }, sponsors, 'sp_id').anyOf).toEqual({ sp_tags: ['gold'] });
    expect(() => parseFilter({ sp_tags: [{ a: 1 }] }, sponsors, 'sp_id')).toThrow(/tag/);
    expect(cellOf(sponsors, 'sp_tags', ['gold', 'eu'], 'en')).toBe('gold, eu');
    expect(cellOf(sponsors, 'sp_tags', [], 'en')).toBe('');
    expect(fieldSchema(sponsors.fields!.sp_tags)).toMatchObject({ type: 'array', uniqueItems: true, maxItems: 3 });
    expect(filterSchemaOf(sponsors).properties).toHaveProperty('sp_tags');
  });
});

describe('a number range', () => {
  it('is declared by range on a number field and bounds it inclusively', () => {
    expect(sponsors.ranges).toEqual([{ field: 'sp_level', kind: 'number', from: 'level_from', to: 'level_to' }]);
    expect(parseFilter({ level_from: 2, level_to: '7' }, sponsors, 'sp_id').ranges).toEqual([
      { field: 'sp_level', op: '>=', value: 2 },
      { field: 'sp_level', op: '<=', value: 7 },
    ]);
    for (const bad of ['x', true, [1], '1e400', '2 3']) expect(() => parseFilter({ level_from: bad }, sponsors, 'sp_id')).toThrow();
    expect(parseFilter({ level_from: '' }, sponsors, 'sp_id').ranges).toEqual([]); // empty: no bound, like every filter
    expect(Object.keys(filterSchemaOf(sponsors).properties as object)).toEqual(expect.arrayContaining(['level_from', 'level_to']));
  });
  it('only date, datetime and number fields may have one', () => {
    expect(() => defineAccountResource({ name: 'x', table: 'x', prefix: 'x', group: 'g', fields: { x_name: { kind: 'text', range: { from: 'a', to: 'b' } } } })).toThrow(
      /only date, datetime, number/,
    );
  });
});
