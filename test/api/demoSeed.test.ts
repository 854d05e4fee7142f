import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { runSeeds } from '../../api/db/migrationSource.js';
import { DEMO_ACCOUNT } from '../../seeds/03_console_demo.js';
import { FORM_ELEMENT_TYPES } from '../../resources/formElements.js';

type Row = Record<string, unknown>;

describeEachDb('npm run db:seed:demo: a console a newcomer can look at', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  beforeAll(async () => {
    t = await startApp(kind);
    await runSeeds(t.db, (f) => f.startsWith('02_') || f.startsWith('03_'));
    await runSeeds(t.db, (f) => f.startsWith('02_') || f.startsWith('03_')); // twice: nothing doubles
    root = await t.signedIn('root');
    a = (await t.db('accounts').where('a_name', DEMO_ACCOUNT).first('a_id')).a_id;
  });
  afterAll(() => t?.close());

  it('two events, the registration form with every element type and its lists, read through the API', async () => {
    const events = await root.get(`/api/1/accounts/${a}/events`);
    expect(events.body.map((e: Row) => e.ev_name).sort()).toEqual(['partner-summit', 'spring-expo']);
    const spring = events.body.find((e: Row) => e.ev_name === 'spring-expo');
    const graph = await root.get(`/api/1/accounts/${a}/events/${spring.id}/graph`);
    expect(graph.status).toBe(200);
    const types = new Set(graph.body.registration.elements.map((e: Row) => e.fe_type));
    expect([...FORM_ELEMENT_TYPES].every((type) => types.has(type))).toBe(true);
    const tree = graph.body.registration.elements.find((e: Row) => e.fe_type === 'checkbox_tree').items;
    expect(tree.map((n: Row) => n.li_title)).toEqual(['Europe', 'Americas', 'Asia']);
    expect(tree[0].children.length).toBe(5);
    expect(graph.body.forms.map((f: { form: Row }) => f.form.f_name)).toEqual(['registration', 'booth']);
    const integrations = await root.get(`/api/1/accounts/${a}/integrations`);
    expect(integrations.body).toEqual([expect.objectContaining({ in_name: 'fake-badges', in_secret_set: true })]);
    expect(integrations.body[0]).not.toHaveProperty('in_secret');
    const summary = await root.get(`/api/1/accounts/${a}/mail-templates`);
    expect(summary.body.map((m: Row) => m.mt_name)).toEqual(['invite']);
  });
});
