import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { linkFromMail, startApp, type TestApp } from '../helpers/app.js';

/** What the admin's public pages need from the auth API beyond the login itself. */
describeEachDb('auth for the public pages', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { passwordMinLength: 10, supportEmail: 'help@example.com', privacyUrl: 'https://example.com/privacy' });
  });
  afterAll(() => t?.close());

  it('the guest token comes with the password minimum, so the reset page checks it before sending', async () => {
    const res = await t.client().get('/api/1/auth/guest-token');
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/\S{16,}/);
    expect(res.body.settings).toEqual({ passwordMinLength: 10 });
  });

  it('a successful e-mail confirmation answers the support contact and the privacy policy address', async () => {
    await t.user('confirm@example.com', 'member', { u_is_verified: false });
    await t.client().post('/api/1/auth/resend-activation', { u_email: 'confirm@example.com' });
    const mail = t.outbox().find((m) => m.file.includes('signup-confirm@example.com'))!;
    const token = linkFromMail(mail.text, '/users/verify/')!.split('/users/verify/')[1];
    const ok = await t.client().get(`/api/1/users/verify/${token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ code: 'ok', support: { email: 'help@example.com', privacyUrl: 'https://example.com/privacy' } });
    const again = await t.client().get(`/api/1/users/verify/${token}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_verified');
  });
});
