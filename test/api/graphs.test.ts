import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { queriesOf, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, createRecord, startConsoleApp } from '../helpers/console.js';
import { eventForms } from '../../resources/eventForms.js';
import { events } from '../../resources/events.js';
import { formElements } from '../../resources/formElements.js';
import { forms } from '../../resources/forms.js';
import { listItems } from '../../resources/listItems.js';
import { lists } from '../../resources/lists.js';

type Row = Record<string, unknown>;

describeEachDb('form and event graphs (api/models/graphs.ts)', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Graph'));
  });
  afterAll(() => t?.close());

  /** A form with `n` text elements and one selectbox over a two-level list. */
  const makeForm = async (n: number) => {
    const list = await createRecord(root, a, lists);
    const top = await createRecord(root, a, listItems, { li_listid: list.id, li_title: 'Europe' });
    await createRecord(root, a, listItems, { li_listid: list.id, li_parentid: top.id, li_title: 'Belgium' });
    await createRecord(root, a, listItems, { li_listid: list.id, li_parentid: top.id, li_title: 'Netherlands' });
    await createRecord(root, a, listItems, { li_listid: list.id, li_title: 'Asia' });
    const form = await createRecord(root, a, forms);
    const select = await createRecord(root, a, formElements, { fe_formid: form.id, fe_type: 'selectbox', fe_listid: list.id, fe_title: 'Country' });
    for (let i = 0; i < n; i++) await createRecord(root, a, formElements, { fe_formid: form.id, fe_type: 'text', fe_title: `Q${i}` });
    return { form, select, list };
  };

  it('a form comes with its elements in order and their list trees, in the same few queries whatever its size', async () => {
    const small = await makeForm(1);
    const big = await makeForm(12);
    const url = (id: unknown) => `${accountPath(a, forms)}/${id}/graph`;
    let res: { status: number; body: Row } | undefined;
    const smallQueries = await queriesOf(t.db, async () => (res = await root.get(url(small.form.id))));
    expect(res!.status).toBe(200);
    const bigQueries = await queriesOf(t.db, async () => (res = await root.get(url(big.form.id))));
    expect(bigQueries.length).toBe(smallQueries.length);
    const graph = res!.body as { form: Row; elements: (Row & { items?: Row[] })[] };
    expect(graph.form.f_id).toBe(big.form.id);
    expect(graph.elements.map((e) => e.fe_title)).toEqual(['Country', ...Array.from({ length: 12 }, (_, i) => `Q${i}`)]);
    expect(graph.elements[0].items).toEqual([
      expect.objectContaining({
        li_title: 'Europe',
        li_value: 'europe',
        children: [expect.objectContaining({ li_title: 'Belgium', children: [] }), expect.objectContaining({ li_title: 'Netherlands' })],
      }),
      expect.objectContaining({ li_title: 'Asia', children: [] }),
    ]);
    expect(graph.elements[1]).not.toHaveProperty('items');
    expect((await root.get(`${accountPath(b, forms)}/${big.form.id}/graph`)).status).toBe(404);
    expect((await root.get(`${accountPath(a, forms)}/not-a-uuid/graph`)).status).toBe(404);
  });

  it('an event comes with its forms in order and its registration form', async () => {
    const one = await makeForm(1);
    const two = await makeForm(2);
    const event = await createRecord(root, a, events, { ev_registration_formid: one.form.id });
    await createRecord(root, a, eventForms, { ef_eventid: event.id, ef_formid: two.form.id });
    await createRecord(root, a, eventForms, { ef_eventid: event.id, ef_formid: one.form.id });
    const res = await root.get(`${accountPath(a, events)}/${event.id}/graph`);
    expect(res.status).toBe(200);
    expect(res.body.event.ev_id).toBe(event.id);
    expect(res.body.forms.map((g: { form: Row }) => g.form.f_id)).toEqual([two.form.id, one.form.id]);
    expect(res.body.registration.form.f_id).toBe(one.form.id);
    expect(res.body.forms[0].elements).toHaveLength(3);
    const member = await t.signedIn('member');
    expect((await member.get(`${accountPath(a, events)}/${event.id}/graph`)).status).toBe(404); // not a member of A
    await t.member(a, member.userId, 'member');
    expect((await member.get(`${accountPath(a, events)}/${event.id}/graph`)).status).toBe(200); // members read events
  });
});
