import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';
import { LIST_MAX_DEPTH } from '../../resources/listItems.js';

type Row = Record<string, unknown>;

/** account-console.md, list-items: the tree rules (same list, no cycles, depth 8, subtree delete) and GET /lists/{id}/tree. */
describeEachDb('list items as a tree', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let n = 0;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Items'));
  });
  afterAll(() => t?.close());

  const items = (account = a) => accountPath(account, 'list-items');
  const newList = async (account = a): Promise<string> => {
    const res = await root.post(accountPath(account, 'lists'), { l_title: `Tree ${++n}`, l_name: `tree-${n}` });
    expect(res.status).toBe(201);
    return String(res.body.id);
  };
  const add = async (listId: string, title: string, parentId: string | null = null, account = a): Promise<Row> => {
    const res = await root.post(items(account), { li_listid: listId, li_parentid: parentId, li_title: title });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const stored = (id: string) => t.db('list_items').where('li_id', id).first();
  /** A chain of `depth` items, each below the previous one; answers their ids from the top. */
  const chain = async (listId: string, depth: number, prefix: string): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < depth; i++) ids.push(String((await add(listId, `${prefix} ${i + 1}`, ids[i - 1] ?? null)).id));
    return ids;
  };

  it('an item takes its value from the title, goes last among its siblings, and its value is unique in the list', async () => {
    const listId = await newList();
    const first = await add(listId, 'Red Apples');
    expect(first).toMatchObject({ li_value: 'red_apples', li_order: 0, li_parentid: null });
    expect((await add(listId, 'Pears')).li_order).toBe(1);
    const again = await root.post(items(), { li_listid: listId, li_title: 'red apples' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'list_item_value_taken', fields: { li_value: 'error_list_item_value_taken' } });
    // The same value in another list is fine.
    expect((await add(await newList(), 'Red Apples')).li_value).toBe('red_apples');
  });

  it('a parent from another list is refused (400, field li_parentid), from another account 404; nothing stored', async () => {
    const listId = await newList();
    const otherList = await newList();
    const foreignParent = await add(otherList, 'Elsewhere');
    const before = Number((await t.db('list_items').where('li_listid', listId).count({ n: '*' }).first())!.n);
    const res = await root.post(items(), { li_listid: listId, li_parentid: foreignParent.id, li_title: 'Child' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ li_parentid: 'error_reference_invalid' });
    const itemA = await add(listId, 'Mine');
    // Moving an item below an item of another list is refused too, and leaves it where it was.
    const move = await root.put(`${items()}/${itemA.id}`, { li_parentid: foreignParent.id });
    expect(move.status).toBe(400);
    expect((await stored(String(itemA.id))).li_parentid).toBeNull();
    // A parent in another account: 404 like an unknown one.
    const listB = await newList(b);
    const parentB = await add(listB, 'In B', null, b);
    expect((await root.post(items(), { li_listid: listId, li_parentid: parentB.id, li_title: 'X' })).status).toBe(400);
    expect((await root.post(items(), { li_listid: listB, li_title: 'X' })).status).toBe(404);
    expect(Number((await t.db('list_items').where('li_listid', listId).count({ n: '*' }).first())!.n)).toBe(before + 1);
  });

  it('an item cannot move below itself or below one of its own items (list_import_cycle), and stays put', async () => {
    const listId = await newList();
    const [top, middle, leaf] = await chain(listId, 3, 'Level');
    for (const target of [top, middle, leaf]) {
      const res = await root.put(`${items()}/${top}`, { li_parentid: target });
      expect(res.status, target).toBe(400);
      expect(res.body).toMatchObject({ code: 'list_import_cycle', fields: { li_parentid: 'error_list_cycle' } });
    }
    expect((await stored(top)).li_parentid).toBeNull();
    expect((await stored(middle)).li_parentid).toBe(top);
  });

  it(`the tree is at most ${LIST_MAX_DEPTH} deep: on create, and when a subtree moves`, async () => {
    const listId = await newList();
    const deep = await chain(listId, LIST_MAX_DEPTH, 'Deep');
    const ninth = await root.post(items(), { li_listid: listId, li_parentid: deep[LIST_MAX_DEPTH - 1], li_title: 'Ninth' });
    expect(ninth.status).toBe(400);
    expect(ninth.body).toMatchObject({ code: 'list_import_too_deep', fields: { li_parentid: 'error_list_too_deep' } });
    // A two-level subtree may hang at depth 7 (levels 7 and 8) but not at depth 8.
    const [sub, subChild] = await chain(listId, 2, 'Sub');
    expect((await root.put(`${items()}/${sub}`, { li_parentid: deep[5] })).status).toBe(200);
    const tooDeep = await root.put(`${items()}/${sub}`, { li_parentid: deep[6] });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.code).toBe('list_import_too_deep');
    expect((await stored(sub)).li_parentid).toBe(deep[5]);
    expect((await stored(subChild)).li_parentid).toBe(sub);
  });

  it('a move to another parent puts the item last there; the order route then places it', async () => {
    const listId = await newList();
    const fruit = String((await add(listId, 'Fruit')).id);
    const veg = String((await add(listId, 'Veg')).id);
    const apple = String((await add(listId, 'Apple', fruit)).id);
    const pear = String((await add(listId, 'Pear', fruit)).id);
    const kale = String((await add(listId, 'Kale', veg)).id);
    const moved = await root.put(`${items()}/${apple}`, { li_parentid: veg });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ li_parentid: veg, li_order: 1 });
    expect((await root.put(`${items()}/order`, { ids: [apple, kale] })).status).toBe(200);
    // Out to the top level: last there.
    expect((await root.put(`${items()}/${pear}`, { li_parentid: null })).body).toMatchObject({ li_parentid: null, li_order: 2 });
    const tree = (await root.get(`${accountPath(a, 'lists')}/${listId}/tree`)).body;
    const shape = (nodes: Row[]): unknown => nodes.map((x) => [x.li_title, shape(x.children as Row[])]);
    expect(shape(tree)).toEqual([
      ['Fruit', []],
      [
        'Veg',
        [
          ['Apple', []],
          ['Kale', []],
        ],
      ],
      ['Pear', []],
    ]);
    // The order route takes one parent's complete children only.
    expect((await root.put(`${items()}/order`, { ids: [apple] })).status).toBe(400);
    expect((await root.put(`${items()}/order`, { ids: [apple, kale, pear] })).status).toBe(400);
  });

  it('deleting an item deletes its whole subtree and nothing else', async () => {
    const listId = await newList();
    const keep = String((await add(listId, 'Keep')).id);
    const [top, mid, leaf] = await chain(listId, 3, 'Gone');
    const sibling = String((await add(listId, 'Gone sibling', top)).id);
    const res = await root.delete(`${items()}/${top}`);
    expect(res.status).toBe(200);
    for (const id of [top, mid, leaf, sibling]) expect(await stored(id)).toBeUndefined();
    expect(await stored(keep)).toBeTruthy();
    expect((await root.get(`${accountPath(a, 'lists')}/${listId}/tree`)).body.map((x: Row) => x.li_title)).toEqual(['Keep']);
  });

  it('GET /lists/{id}/tree: nested {li_id, li_title, li_value, children} in order, one query; empty, unknown and foreign lists', async () => {
    const listId = await newList();
    const one = String((await add(listId, 'One')).id);
    const two = String((await add(listId, 'Two')).id);
    const twoA = String((await add(listId, 'Two A', two)).id);
    const twoB = String((await add(listId, 'Two B', two)).id);
    expect((await root.put(`${items()}/order`, { ids: [two, one] })).status).toBe(200);
    expect((await root.put(`${items()}/order`, { ids: [twoB, twoA] })).status).toBe(200);
    const queries: string[] = [];
    const listener = (q: { sql: string }) => queries.push(q.sql);
    t.db.on('query', listener);
    const res = await root.get(`${accountPath(a, 'lists')}/${listId}/tree`);
    t.db.removeListener('query', listener);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        li_id: two,
        li_title: 'Two',
        li_value: 'two',
        children: [
          { li_id: twoB, li_title: 'Two B', li_value: 'two_b', children: [] },
          { li_id: twoA, li_title: 'Two A', li_value: 'two_a', children: [] },
        ],
      },
      { li_id: one, li_title: 'One', li_value: 'one', children: [] },
    ]);
    expect(queries.filter((q) => /list_items/.test(q))).toHaveLength(1);
    expect((await root.get(`${accountPath(a, 'lists')}/${await newList()}/tree`)).body).toEqual([]);
    expect((await root.get(`${accountPath(a, 'lists')}/${MISSING}/tree`)).status).toBe(404);
    expect((await root.get(`${accountPath(a, 'lists')}/not-a-uuid/tree`)).status).toBe(404);
    expect((await root.get(`${accountPath(b, 'lists')}/${listId}/tree`)).status).toBe(404);
    expect((await t.client().get(`${accountPath(a, 'lists')}/${listId}/tree`)).status).toBe(401);
  });
});
