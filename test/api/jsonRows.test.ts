import { afterAll, beforeAll, expect, it } from 'vitest';
import { JSON_ROWS } from '../../api/db/jsonRows.js';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';

/**
 * A list page reads its rows with their timestamps as the JSON strings (api/db/jsonRows.ts, api/crud/list.ts runList):
 * the page says the same as a record's own answer, on pg and on PGlite (each with its own way of passing the parser).
 */
describeEachDb('list rows read as JSON', (kind) => {
  let t: TestApp;
  let root: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    await t.db('users').insert([1, 2].map((i) => ({ u_email: `json${i}@example.com`, u_first_name: 'Json', u_last_name: `Rows ${i}` })));
    // Microseconds, which the answers cut to milliseconds as pg's Date does.
    await t.db('users').update({ u_updated_at: t.db.raw(`timestamptz '2026-11-26 21:28:51.579999+00'`) });
  });
  afterAll(() => t?.close());

  it('the driver hands a timestamptz over as the string, with the options, and as a Date without them', async () => {
    const typed = await t.db('users').options(JSON_ROWS).first('u_created_at', 'u_updated_at');
    expect(typeof typed.u_created_at).toBe('string');
    expect(typed.u_updated_at).toBe('2026-11-26T21:28:51.579Z');
    const plain = await t.db('users').first('u_created_at');
    expect(plain.u_created_at).toBeInstanceOf(Date);
    expect(JSON.stringify(plain.u_created_at)).toBe(JSON.stringify(typed.u_created_at));
  });

  it('a list page and each record’s own answer agree on every timestamp', async () => {
    const page = await root.get(`/api/1/users?range=${encodeURIComponent('[0,9]')}`);
    expect(page.status).toBe(200);
    expect(page.body.length).toBeGreaterThan(1);
    for (const row of page.body as Record<string, unknown>[]) {
      const one = await root.get(`/api/1/users/${row.id}`);
      expect(one.body.u_created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(row.u_created_at).toBe(one.body.u_created_at);
      expect(row.u_updated_at).toBe(one.body.u_updated_at);
      expect(row.u_updated_at).toBe('2026-11-26T21:28:51.579Z');
    }
  });
});
