import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { withGrant, MISSING, type Signed, type TestApp, type TestClient } from '../helpers/app.js';
import { accountPath, startConsoleApp } from '../helpers/console.js';

type Row = Record<string, unknown>;

/** account-console.md, lists: POST /lists/{id}/import (CSV or indented text, all or nothing) and GET /lists/{id}/export.csv. */
describeEachDb('list import and export', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let b: string;
  let n = 0;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Lists'));
  });
  afterAll(() => t?.close());

  const lists = (account = a) => accountPath(account, 'lists');
  const newList = async (account = a): Promise<string> => {
    const res = await root.post(lists(account), { l_title: `List ${++n}`, l_name: `list-${n}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return String(res.body.id);
  };
  const importText = (c: TestClient, listId: string, text: string, type = 'text/csv', account = a) =>
    c
      .raw('post', `${lists(account)}/${listId}/import`)
      .type(type)
      .send(text);
  const upload = (c: TestClient, listId: string, text: string, filename: string, contentType = 'application/octet-stream') =>
    c.raw('post', `${lists()}/${listId}/import`).attach('file', Buffer.from(text, 'utf8'), { filename, contentType });
  /** The stored items as (depth-first) lines "title|value|parent value|order". */
  const stored = async (listId: string): Promise<string[]> => {
    const rows: Row[] = await t
      .db('list_items as c')
      .leftJoin('list_items as p', 'p.li_id', 'c.li_parentid')
      .where('c.li_listid', listId)
      .select('c.li_title', 'c.li_value', 'p.li_value as parent', 'c.li_order')
      .orderBy(['p.li_value', 'c.li_order']);
    return rows.map((r) => `${r.li_title}|${r.li_value}|${r.parent ?? ''}|${r.li_order}`).sort();
  };
  const count = async (listId: string) => Number((await t.db('list_items').where('li_listid', listId).count({ n: '*' }).first())!.n);
  const tree = async (listId: string) => (await root.get(`${lists()}/${listId}/tree`)).body;

  it('imports a CSV body: header in any order and spelling, value defaults from the title, parents from the file or the list', async () => {
    const listId = await newList();
    const first = await importText(root, listId, 'Title,Value\nFruit,fruit\n');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const csv = ['parent_value,title,value', 'fruit,Green Apple,', 'fruit,Pear,pear', 'pear,Conference,', ',Vegetables,veg', 'veg,Kale,'].join('\r\n');
    const res = await importText(root, listId, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ code: 'ok', rows: 5, created: 5 });
    expect(await stored(listId)).toEqual(
      ['Conference|conference|pear|0', 'Fruit|fruit||0', 'Green Apple|green_apple|fruit|0', 'Kale|kale|veg|0', 'Pear|pear|fruit|1', 'Vegetables|veg||1'].sort(),
    );
    expect(await tree(listId)).toEqual([
      {
        li_id: expect.any(String),
        li_title: 'Fruit',
        li_value: 'fruit',
        children: [
          { li_id: expect.any(String), li_title: 'Green Apple', li_value: 'green_apple', children: [] },
          {
            li_id: expect.any(String),
            li_title: 'Pear',
            li_value: 'pear',
            children: [{ li_id: expect.any(String), li_title: 'Conference', li_value: 'conference', children: [] }],
          },
        ],
      },
      { li_id: expect.any(String), li_title: 'Vegetables', li_value: 'veg', children: [{ li_id: expect.any(String), li_title: 'Kale', li_value: 'kale', children: [] }] },
    ]);
  });

  it('a child may come before its parent in the file; ";" separated with a BOM and quoted cells', async () => {
    const listId = await newList();
    const res = await importText(root, listId, '\uFEFFtitle;value;parent value\n"Red; ripe";red;colour\nColour;colour;\n');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(listId)).toEqual(['Colour|colour||0', 'Red; ripe|red|colour|0']);
  });

  it('imports indented text (tabs or spaces) as a text/plain body', async () => {
    const listId = await newList();
    const text = ['Europe', '  Netherlands', '    Amsterdam', '    Utrecht', '  Belgium', '', 'Asia', '\tJapan', '\t\tTokyo'].join('\n');
    const res = await importText(root, listId, text, 'text/plain');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(8);
    const t1 = await tree(listId);
    expect(t1.map((x: Row) => x.li_title)).toEqual(['Europe', 'Asia']);
    expect(t1[0].children.map((x: Row) => x.li_title)).toEqual(['Netherlands', 'Belgium']);
    expect(t1[0].children[0].children.map((x: Row) => x.li_value)).toEqual(['amsterdam', 'utrecht']);
    expect(t1[1].children[0].children[0].li_title).toBe('Tokyo');
  });

  it('takes a multipart file: .csv as CSV, .txt as indented text; another type is refused', async () => {
    const listId = await newList();
    const csv = await upload(root, listId, 'title\nOne\nTwo\n', 'items.csv', 'text/csv');
    expect(csv.status, JSON.stringify(csv.body)).toBe(200);
    const txt = await upload(root, listId, 'Three\n  Four\n', 'items.txt');
    expect(txt.status, JSON.stringify(txt.body)).toBe(200);
    expect(await stored(listId)).toEqual(['Four|four|three|0', 'One|one||0', 'Three|three||2', 'Two|two||1']);
    const other = await upload(root, listId, 'Five\n', 'items.xlsx');
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('invalid_file_type');
    expect(await count(listId)).toBe(4);
  });

  it('lists every bad row with its line and code, and stores nothing', async () => {
    const listId = await newList();
    expect((await importText(root, listId, 'title,value,parent_value\nTaken,taken,\nDeep 1,d1,\n')).status).toBe(200);
    // d1 (stored) → d2 … d8 in the file: d8 is the 8th level, d9 the 9th.
    const chain = Array.from({ length: 8 }, (_, i) => `Deep ${i + 2},d${i + 2},d${i + 1}`);
    const csv = [
      'title,value,parent_value', // 1
      'Again,taken,', // 2: duplicate of a stored value
      'Twice,twice,', // 3
      'Twice again,twice,', // 4: duplicate within the file
      'Orphan,orphan,nowhere', // 5: unknown parent
      'Ring A,ring_a,ring_b', // 6: cycle
      'Ring B,ring_b,ring_a', // 7: cycle
      'Self,self,self', // 8: its own parent
      ...chain, // 9-16: d9 (line 16) is too deep
      ',no_title,', // 17: no title
    ];
    const before = await count(listId);
    const res = await importText(root, listId, csv.join('\n'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('list_import_duplicate_value');
    expect(res.body.errors).toEqual([
      { row: 2, code: 'list_import_duplicate_value', title: 'Again', value: 'taken', parent_value: '' },
      { row: 4, code: 'list_import_duplicate_value', title: 'Twice again', value: 'twice', parent_value: '' },
      { row: 5, code: 'list_import_unknown_parent', title: 'Orphan', value: 'orphan', parent_value: 'nowhere' },
      { row: 6, code: 'list_import_cycle', title: 'Ring A', value: 'ring_a', parent_value: 'ring_b' },
      { row: 7, code: 'list_import_cycle', title: 'Ring B', value: 'ring_b', parent_value: 'ring_a' },
      { row: 8, code: 'list_import_cycle', title: 'Self', value: 'self', parent_value: 'self' },
      { row: 16, code: 'list_import_too_deep', title: 'Deep 9', value: 'd9', parent_value: 'd8' },
      { row: 17, code: 'list_import_title_required', title: '', value: 'no_title', parent_value: '' },
    ]);
    expect(await count(listId)).toBe(before);
    // Each code on its own leads the answer when it is the first.
    for (const [body, code] of [
      ['title,parent_value\nX,nowhere\n', 'list_import_unknown_parent'],
      ['title,value,parent_value\nX,x,y\nY,y,x\n', 'list_import_cycle'],
      ['title\nTaken\n', 'list_import_duplicate_value'],
    ]) {
      const r = await importText(root, listId, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(code);
      expect(r.body.errors.length).toBeGreaterThan(0);
    }
    // Indented text nine levels deep: the ninth line is too deep.
    const deep = Array.from({ length: 9 }, (_, i) => `${'  '.repeat(i)}Level ${i + 1}`).join('\n');
    const r = await importText(root, listId, deep, 'text/plain');
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ row: 9, code: 'list_import_too_deep', title: 'Level 9', value: 'level_9', parent_value: 'level_8' }]);
    expect(await count(listId)).toBe(before);
  });

  it('a file without a title column, an empty file or no file: 400 with the reason, nothing stored', async () => {
    const listId = await newList();
    const noTitle = await importText(root, listId, 'value,parent_value\nx,\n');
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ code: 'list_import_missing_columns', fields: { file: 'error_list_import_columns' } });
    const empty = await importText(root, listId, 'title\n\n');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('list_import_empty');
    const json = await root.post(`${lists()}/${listId}/import`, { items: [] });
    expect(json.status).toBe(400);
    expect(json.body.fields).toEqual({ file: 'error_required' });
    expect(await count(listId)).toBe(0);
  });

  it('another account, an unknown list, no session, no CSRF or no create bit: refused, nothing stored', async () => {
    const listId = await newList();
    const body = 'title\nNope\n';
    expect((await importText(root, listId, body, 'text/csv', b)).status).toBe(404);
    expect((await importText(root, MISSING, body)).status).toBe(404);
    expect((await t.client().post(`${lists()}/${listId}/import`, body)).status).toBe(401);
    expect((await root.post(`${lists()}/${listId}/import`, body, { csrf: false })).status).toBe(403);
    const member = await t.signedIn('member');
    await t.member(a, member.userId, 'member');
    await member.get('/api/1/auth/me');
    await withGrant(t, 'member', 'account_lists', 1 | 4 | 8, async () => {
      expect((await importText(member, listId, body)).status).toBe(403);
      expect((await member.get(`${lists()}/${listId}/export.csv`)).status).toBe(200);
    });
    await withGrant(t, 'member', 'account_lists', 0, async () => {
      expect((await member.get(`${lists()}/${listId}/export.csv`)).status).toBe(403);
      expect((await member.get(`${lists()}/${listId}/tree`)).status).toBe(403);
    });
    expect((await root.get(`${lists(b)}/${listId}/export.csv`)).status).toBe(404);
    expect(await count(listId)).toBe(0);
  });

  it('exports title, value, parent_value with a BOM, parents before children in order, formulas defused; the export imports back', async () => {
    const listId = await newList();
    const csv = ['title,value,parent_value', '=1+1,formula,', '"Comma, ""quoted""",comma,formula', '-minus,minus,', '@at,at,minus', 'Plain,plain,minus'].join('\n');
    expect((await importText(root, listId, csv)).status).toBe(200);
    // Move "Plain" before "@at" so the export follows li_order, not insertion.
    const items: Row[] = (await root.get(`${accountPath(a, 'list-items')}?filter=${encodeURIComponent(JSON.stringify({ li_listid: listId }))}`)).body;
    const id = (v: string) => String(items.find((i) => i.li_value === v)!.id);
    expect((await root.put(`${accountPath(a, 'list-items')}/order`, { ids: [id('plain'), id('at')] })).status).toBe(200);

    const res = await root.get(`${lists()}/${listId}/export.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="list-\d+\.csv"/);
    const text = res.text;
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      'title,value,parent_value',
      "'=1+1,formula,",
      '"Comma, ""quoted""",comma,formula',
      "'-minus,minus,",
      'Plain,plain,minus',
      "'@at,at,minus",
      '',
    ]);

    const copy = await newList();
    const back = await importText(root, copy, text);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const shape = (nodes: Row[]): unknown => nodes.map((x) => [x.li_title, x.li_value, shape(x.children as Row[])]);
    expect(shape(await tree(copy))).toEqual(shape(await tree(listId)));
    expect(shape(await tree(copy))).toEqual([
      ['=1+1', 'formula', [['Comma, "quoted"', 'comma', []]]],
      [
        '-minus',
        'minus',
        [
          ['Plain', 'plain', []],
          ['@at', 'at', []],
        ],
      ],
    ]);
  });

  it('5,000 rows import quickly, in a handful of statements, and export back', async () => {
    const listId = await newList();
    const lines = ['title,value,parent_value'];
    for (let i = 0; i < 50; i++) {
      lines.push(`Group ${i},g${i},`);
      for (let j = 0; j < 99; j++) lines.push(`Item ${i}.${j},i${i}_${j},g${i}`);
    }
    expect(lines.length - 1).toBe(5000);
    const statements: string[] = [];
    const listener = (q: { sql: string }) => statements.push(q.sql);
    t.db.on('query', listener);
    const started = performance.now();
    const res = await importText(root, listId, lines.join('\n'));
    const ms = performance.now() - started;
    t.db.removeListener('query', listener);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.created).toBe(5000);
    expect(await count(listId)).toBe(5000);
    expect(statements.filter((s) => /^insert/i.test(s.trim()))).toHaveLength(1);
    expect(statements.length).toBeLessThan(15);
    expect(ms).toBeLessThan(5000);
    const exported = await root.get(`${lists()}/${listId}/export.csv`);
    expect(exported.text.slice(1).trim().split('\r\n')).toEqual(lines);
    const t1 = await tree(listId);
    expect(t1).toHaveLength(50);
    expect(t1[49].children).toHaveLength(99);
  });
});
