import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { mailsTo, withFailingMailer } from '../helpers/mail.js';
import { MAIL_TEMPLATE_VARIABLES, mailTemplateVariables } from '../../resources/mailTemplates.js';

describeEachDb('mail templates: preview with sample data, test mail to yourself, built-ins', (kind) => {
  let t: TestApp;
  let owner: Signed;
  let ownerEmail: string;
  let memberOfA: Signed;
  let ownerOfB: Signed;
  let a: string;
  let b: string;
  const accountNameA = `Tom & Jerry's <Events> ${uid()}`;

  beforeAll(async () => {
    t = await startApp(kind);
    a = (await t.account(accountNameA)).a_id;
    b = (await t.account(`B ${uid()}`)).a_id;
    owner = await t.signedIn('member');
    ownerEmail = (await t.db('users').where('u_id', owner.userId).first()).u_email;
    // The caller's name goes into sample data (inviter_name): markup in it must arrive as text.
    await t.db('users').where('u_id', owner.userId).update({ u_first_name: '<i>Ann</i>', u_last_name: 'O"Hara' });
    await t.member(a, owner.userId, 'superadmin');
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    ownerOfB = await t.signedIn('member');
    await t.member(b, ownerOfB.userId, 'superadmin');
  });
  afterAll(() => t?.close());

  const path = (account = a) => `/api/1/accounts/${account}/mail-templates`;
  const create = async (body: Record<string, unknown>, account = a, by = owner) => {
    const res = await by.post(path(account), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, unknown> & { id: string };
  };
  const inviteTemplate = {
    mt_name: 'invite',
    mt_subject: 'Hello {{first_name}} from {{account_name}} <{{inviter_name}}>',
    mt_html: '<p title="{{inviter_name}}">{{inviter_name}} / {{ account_name }} / [{{unknown_thing}}] / {{link}}</p>',
    mt_text: 'Text: {{inviter_name}} / {{account_name}} / [{{unknown_thing}}] / {{link}}',
  };

  it('GET …/{id}/preview fills the sample data: HTML-escaped in the HTML, plain in subject and text, unknown variables empty', async () => {
    const tpl = await create(inviteTemplate);
    const res = await owner.get(`${path()}/${tpl.id}/preview`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['html', 'subject', 'text']);
    expect(res.body.subject).toBe(`Hello Alex from ${accountNameA} <<i>Ann</i> O"Hara>`);
    const escapedName = '&lt;i&gt;Ann&lt;/i&gt; O&quot;Hara';
    const escapedAccount = accountNameA.replace('&', '&amp;').replace("'", '&#39;').replace('<', '&lt;').replace('>', '&gt;');
    expect(res.body.html).toBe(`<p title="${escapedName}">${escapedName} / ${escapedAccount} / [] / ${t.config.publicUrl}/invite/sample-link</p>`);
    expect(res.body.text).toBe(`Text: <i>Ann</i> O"Hara / ${accountNameA} / [] / ${t.config.publicUrl}/invite/sample-link`);
  });

  it("a template of the account's own naming gets the common variables only; HTML or text alone makes the other part", async () => {
    const own = await create({ mt_name: `own-${uid()}`, mt_subject: '{{first_name}}|{{account_name}}', mt_html: '<p>A &amp; B<br>{{account_name}}</p><p>{{first_name}}end</p>' });
    const res = await owner.get(`${path()}/${own.id}/preview`);
    expect(res.body.subject).toBe(`|${accountNameA}`);
    expect(res.body.text).toBe(`A & B\n${accountNameA}\n\nend`);
    const textOnly = await create({ mt_name: `text-${uid()}`, mt_subject: 'T', mt_text: 'Line <1>\n{{account_name}}\n\nSecond' });
    const shown = await owner.get(`${path()}/${textOnly.id}/preview`);
    expect(shown.body.html).toBe(`<p>Line &lt;1&gt;<br>${accountNameA.replace('&', '&amp;').replace("'", '&#39;').replace('<', '&lt;').replace('>', '&gt;')}</p>\n<p>Second</p>`);
    expect(shown.body.text).toBe(`Line <1>\n${accountNameA}\n\nSecond`);
  });

  it('POST …/preview renders unsaved text the same way (the editor), with the field rules of the declaration', async () => {
    const res = await owner.post(`${path()}/preview`, inviteTemplate);
    expect(res.status).toBe(200);
    const tpl = await t.db('mail_templates').where({ mt_accountid: a, mt_name: 'invite' }).first();
    const stored = await owner.get(`${path()}/${tpl.mt_id}/preview`);
    expect(res.body).toEqual(stored.body);
    const bad = await owner.post(`${path()}/preview`, { mt_subject: 'x'.repeat(501) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ mt_subject: 'error_too_long' });
  });

  it("POST …/{id}/test sends the rendered template with sample data to the caller's own address; 502 mail_failed when it cannot", async () => {
    const tpl = await create({
      mt_name: `test-${uid()}`,
      mt_subject: 'Test of {{account_name}}',
      mt_from_name: 'Acme Events',
      mt_from_email: 'events@acme.example',
      mt_html: '<p>TEST-BODY {{account_name}}</p>',
    });
    const before = mailsTo(t, ownerEmail).length;
    const res = await owner.post(`${path()}/${tpl.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'ok', to: ownerEmail });
    const mails = mailsTo(t, ownerEmail);
    expect(mails).toHaveLength(before + 1);
    const mail = mails[mails.length - 1];
    expect(mail.subject).toBe(`Test of ${accountNameA}`);
    expect(mail.html).toContain('TEST-BODY Tom &amp; Jerry');
    expect(mail.text).toContain(`TEST-BODY ${accountNameA}`);
    expect(mail.from).toContain('Acme Events');
    expect(mail.replyTo).toBe('events@acme.example');

    await withFailingMailer(t, async () => {
      const failed = await owner.post(`${path()}/${tpl.id}/test`);
      expect(failed.status).toBe(502);
      expect(failed.body.code).toBe('mail_failed');
    });
    expect(mailsTo(t, ownerEmail)).toHaveLength(before + 1);
  });

  it('an invite or handoff template whose body lacks {{link}} is refused on save (nothing stored or changed); one with only a subject sends the built-in body', async () => {
    const c = (await t.account(`C ${uid()}`)).a_id;
    await t.member(c, owner.userId, 'superadmin');
    const count = async () => Number((await t.db('mail_templates').where('mt_accountid', c).count({ n: '*' }).first())!.n);
    for (const [body, field] of [
      [{ mt_name: 'invite', mt_subject: 'Join us', mt_html: '<p>Welcome {{first_name}}</p>' }, 'mt_html'],
      [{ mt_name: 'handoff', mt_subject: 'A lead', mt_text: 'A lead for you, {{first_name}}' }, 'mt_text'],
      [{ mt_name: 'invite', mt_subject: 'Join us', mt_html: '<p>{{ link }}</p>', mt_text: 'no link here' }, 'mt_text'],
    ] as const) {
      const res = await owner.post(path(c), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.fields).toEqual({ [field]: 'error_mail_link_missing' });
      expect(res.body.message).toBe('Add the link variable to this mail: without the link nobody can follow it');
    }
    expect(await count()).toBe(0);
    // A template of the account's own name may leave the link out; so may the registration mail (it has none).
    await create({ mt_name: `own-${uid()}`, mt_subject: 'x', mt_html: '<p>no link</p>' }, c);
    await create({ mt_name: 'registration', mt_subject: 'Thanks', mt_html: '<p>See you {{first_name}}</p>' }, c);
    // A stored invite template cannot lose its link by an update either.
    const good = await create({ mt_name: 'invite', mt_subject: 'Join {{account_name}}', mt_html: '<p><a href="{{link}}">Join</a></p>' }, c);
    const lost = await owner.put(`${path(c)}/${good.id}`, { mt_html: '<p>Join</p>' });
    expect(lost.status).toBe(400);
    expect(lost.body.fields).toEqual({ mt_html: 'error_mail_link_missing' });
    expect((await t.db('mail_templates').where('mt_id', good.id).first()).mt_html).toBe('<p><a href="{{link}}">Join</a></p>');

    // Only a subject: the test mail and the real invitation carry the built-in body (with the link) under that subject.
    const handoff = await create({ mt_name: 'handoff', mt_subject: 'Yours now: {{lead_first_name}}' }, c);
    const preview = await owner.get(`${path(c)}/${handoff.id}/preview`);
    expect(preview.body.subject).toMatch(/^Yours now: /);
    expect(preview.body.html).toContain(`${t.config.publicUrl}/handoffs/`);
    expect(preview.body.text).toContain(`${t.config.publicUrl}/handoffs/`);
    await t.db('mail_templates').where('mt_id', good.id).update({ mt_html: null, mt_text: null, mt_subject: 'Only a subject for {{first_name}}' });
    const to = `${uid()}@example.com`;
    const sent = await owner.post(`/api/1/accounts/${c}/invites`, { iv_email: to, iv_first_name: 'Ivy' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [mail] = mailsTo(t, to);
    expect(mail.subject).toBe('Only a subject for Ivy');
    expect(mail.html).toContain(`${t.config.publicUrl}/invite/`);
    expect(mail.text).toContain(`${t.config.publicUrl}/invite/`);
  });

  it('GET …/builtin/{name}: the built-in template the product sends while the account has none', async () => {
    const res = await owner.get(`${path()}/builtin/invite`);
    expect(res.status).toBe(200);
    expect(res.body.mt_name).toBe('invite');
    expect(res.body.mt_subject).toContain('{{account_name}}');
    expect(res.body.mt_html).toContain('{{link}}');
    expect(res.body.mt_text).toContain('{{link}}');
    for (const name of ['handoff', 'registration']) expect((await owner.get(`${path()}/builtin/${name}`)).status).toBe(200);
    // A handoff's sample link points at the handoff page.
    const handoff = await create({ mt_name: 'handoff', mt_subject: '{{lead_first_name}}', mt_text: '{{link}}' });
    const shown = (await owner.get(`${path()}/${handoff.id}/preview`)).body;
    expect(shown).toMatchObject({ subject: 'Sam', text: `${t.config.publicUrl}/handoffs/sample-link` });
    expect((await owner.get(`${path()}/builtin/nonsense`)).status).toBe(404);
    // Every variable a built-in template uses is one the mail gets (the list the editor shows).
    for (const [name, vars] of Object.entries(MAIL_TEMPLATE_VARIABLES)) {
      const builtin = (await owner.get(`${path()}/builtin/${name}`)).body;
      const used = [...`${builtin.mt_subject}${builtin.mt_html}${builtin.mt_text}`.matchAll(/\{\{\{?\s*(\w+)\s*\}?\}\}/g)].map((m) => m[1]);
      for (const v of used) expect(vars as readonly string[], `${name}: {{${v}}}`).toContain(v);
    }
    expect(mailTemplateVariables('invite')).toContain('link');
    expect(mailTemplateVariables('my-own')).not.toContain('link');
  });

  it('permissions: a member has no account_mail_templates; no session 401; no CSRF 403; update bit for the test mail; another account 404', async () => {
    const tpl = await create({ mt_name: `perm-${uid()}`, mt_subject: 'S' });
    const sent = t.outbox().length;
    for (const res of [
      await memberOfA.get(path()),
      await memberOfA.get(`${path()}/${tpl.id}/preview`),
      await memberOfA.post(`${path()}/preview`, { mt_subject: 'x' }),
      await memberOfA.post(`${path()}/${tpl.id}/test`),
      await memberOfA.get(`${path()}/builtin/invite`),
    ])
      expect(res.status).toBe(403);
    for (const res of [await t.client().get(`${path()}/${tpl.id}/preview`), await t.client().post(`${path()}/${tpl.id}/test`)]) expect(res.status).toBe(401);
    expect((await owner.post(`${path()}/${tpl.id}/test`, {}, { csrf: false })).status).toBe(403);
    await withGrant(t, 'superadmin', 'account_mail_templates', 1, async () => {
      expect((await owner.get(`${path()}/${tpl.id}/preview`)).status).toBe(200);
      expect((await owner.post(`${path()}/${tpl.id}/test`)).status).toBe(403);
    });
    // Another account's template: 404 through either account's path.
    expect((await ownerOfB.get(`${path(b)}/${tpl.id}/preview`)).status).toBe(404);
    expect((await ownerOfB.post(`${path(b)}/${tpl.id}/test`)).status).toBe(404);
    expect((await ownerOfB.get(`${path()}/${tpl.id}/preview`)).status).toBe(404);
    expect((await owner.get(`${path()}/${MISSING}/preview`)).status).toBe(404);
    expect((await owner.get(`${path()}/nope/preview`)).status).toBe(404);
    expect(t.outbox().length).toBe(sent);
  });
});
