import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { linkFromMail, startApp, type TestApp, type TestClient, MISSING, uid, signedInRoles, type Signed } from '../helpers/app.js';

describeEachDb('entry API: /emails/preview/:template/:userId', (kind) => {
  let t: TestApp;
  let root: Signed, superadmin: Signed, admin: Signed, member: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    ({ root, superadmin, admin, member } = await signedInRoles(t));
  });
  afterAll(() => t?.close());

  const preview = (c: TestClient, template: string, userId: string) => c.get(`/api/1/emails/preview/${template}/${userId}`);

  it('signup: {html, subject, text} addressed to the user, with a link to /users/verify/<token>', async () => {
    const u = await t.user(`${uid()}.signup@example.com`, 'member', { u_first_name: 'Wilhelmina', u_last_name: 'Preview' });
    const res = await preview(root, 'signup', u.u_id);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(typeof res.body.html).toBe('string');
    expect(res.body.html).toMatch(/<html/i);
    expect(res.body.html).toContain('Wilhelmina');
    expect(res.body.html).toContain(u.u_email);
    expect(res.body.html).toMatch(/href="http:\/\/localhost:3000\/users\/verify\/[^"]+"/);
    expect(res.body.html).not.toContain('/users/resetpassword');
    expect(res.body.html).not.toMatch(/\{\{/); // every placeholder filled
    expect(res.body.subject).toMatch(/Confirm your e-mail address/);
    expect(res.body.text).toContain('Wilhelmina');
    expect(res.body.text).toContain('/users/verify/');
  });

  it('resetpassword: a link to /users/resetpassword?token=…', async () => {
    const u = await t.user(`${uid()}.reset@example.com`, 'member', { u_first_name: 'Rosalind' });
    const res = await preview(root, 'resetpassword', u.u_id);
    expect(res.status).toBe(200);
    expect(res.body.html).toContain('Rosalind');
    expect(res.body.html).toMatch(/href="http:\/\/localhost:3000\/users\/resetpassword\?token=[^"]+"/);
    expect(res.body.html).not.toContain('/users/verify/');
    expect(res.body.subject).toMatch(/Reset your .* password/);
    expect(res.body.text).toContain('/users/resetpassword?token=');
  });

  it('is the template that is really sent: same subject and link path as the mail a new user gets', async () => {
    const email = `${uid()}.real@example.com`;
    const created = await root.post('/api/1/users', { u_email: email, u_first_name: 'Real', u_password: 'long-enough-pass', u_password_confirm: 'long-enough-pass' });
    expect(created.status).toBe(201);
    const sent = t.outbox().find((m) => m.file.includes(`signup-${email}`))!;
    expect(sent).toBeTruthy();
    const res = await preview(root, 'signup', created.body.u_id);
    expect(sent.text).toContain(`Subject: ${res.body.subject}`);
    const sentLink = new URL(linkFromMail(sent.text, '/users/verify/')!);
    const previewLink = new URL(res.body.html.match(/href="([^"]*\/users\/verify\/[^"]*)"/)[1]);
    expect(previewLink.origin + previewLink.pathname.replace(/[^/]+$/, '')).toBe(sentLink.origin + sentLink.pathname.replace(/[^/]+$/, ''));
  });

  it("escapes the user's name in the HTML; a user without a first name is greeted by e-mail", async () => {
    const u = await t.user(`${uid()}.esc@example.com`, 'member', { u_first_name: '<img src=x onerror=alert(1)>' });
    const res = await preview(root, 'signup', u.u_id);
    expect(res.status).toBe(200);
    expect(res.body.html).not.toContain('<img src=x');
    expect(res.body.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const nameless = await t.user(`${uid()}.nameless@example.com`);
    const res2 = await preview(root, 'resetpassword', nameless.u_id);
    expect(res2.body.html).toContain(`Hello ${nameless.u_email}`);
  });

  it('unknown templates, unknown and malformed user ids answer 404', async () => {
    for (const template of ['welcome', 'layout', 'SIGNUP', '..%2Fsignup', 'signup.html']) {
      const res = await preview(root, template, member.userId);
      expect({ template, status: res.status, code: res.body.code }).toEqual({ template, status: 404, code: 'not_found' });
    }
    for (const id of [MISSING, 'nope', '1']) {
      const res = await preview(root, 'signup', id);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'not_found' });
    }
    expect((await root.get('/api/1/emails/preview/signup')).status).toBe(404);
  });

  it('401 without a session, 403 without entry_users (superadmin, admin, member)', async () => {
    const anon = await t.client().get(`/api/1/emails/preview/signup/${member.userId}`);
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('not_logged_in');
    for (const c of [superadmin, admin, member]) {
      const res = await preview(c, 'signup', c.userId);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
      expect(res.body.html).toBeUndefined();
    }
  });
});
