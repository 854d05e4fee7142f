import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import type { TestApp, TestClient } from '../helpers/app.js';
import { bigPng, DRIVERS, JPEG, PDF, PNG, putBytes, startStorageApp, storedKeys } from '../helpers/storage.js';

const MAX = 256 * 1024; // storageConfig's maxFileBytes (below the 5 MB logo limit, so it is the logo limit here)

for (const driver of DRIVERS) {
  describe(`account logo, ${driver} driver`, () => {
    describeEachDb(`account logo (${driver})`, (kind) => {
      let t: TestApp;
      let close: () => Promise<void>;
      let root: TestClient & { userId: string };

      beforeAll(async () => {
        ({ t, close } = await startStorageApp(kind, driver));
        root = await t.signedIn('root');
      });
      afterAll(() => close?.());

      const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(t.baseUrl + url, { headers });
        return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      };
      const flag = async (id: string) => (await t.db('accounts').where('a_id', id).first('a_has_logo')).a_has_logo;
      const uploadUrl = async (c: TestClient, id: string) => {
        const res = await c.get(`/api/1/accounts/${id}/uploadurl/logo`);
        expect(res.status).toBe(200);
        if (driver === 'local') expect(res.body.url).toMatch(new RegExp(`^/storage/logos/${id}\\?expires=\\d+&max=\\d+&signature=`));
        return { ...res.body, url: new URL(res.body.url, t.baseUrl).href } as { id: string; url: string; path: string; max_bytes: number };
      };

      it('uploads a logo, sets the flag, serves it at /storage/logos/<id>, replaces and removes it', async () => {
        const { a_id } = await t.account('Logo Co');
        expect((await fetchBytes(`/storage/logos/${a_id}`)).status).toBe(404);
        const signed = await uploadUrl(root, a_id);
        expect(signed).toMatchObject({ id: a_id, path: '/logos', max_bytes: MAX });
        expect((await putBytes(signed.url, PNG)).status).toBe(200);
        // Uploaded but not yet confirmed: not served.
        expect((await fetchBytes(`/storage/logos/${a_id}`)).status).toBe(404);
        const set = await root.put(`/api/1/accounts/${a_id}/haslogo`, {});
        expect(set.status).toBe(200);
        expect(set.body).toMatchObject({ a_id, id: a_id, a_has_logo: true, logo_url: `/storage/logos/${a_id}` });
        expect((await root.get(`/api/1/accounts/${a_id}`)).body.a_has_logo).toBe(true);

        const logo = await fetchBytes(`/storage/logos/${a_id}`);
        expect(logo.status).toBe(200);
        expect(logo.headers.get('content-type')).toBe('image/png');
        expect(logo.headers.get('content-disposition')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
        expect(logo.headers.get('cache-control')).toContain('no-cache');
        expect(Buffer.compare(logo.body, PNG)).toBe(0);
        const etag = logo.headers.get('etag')!;
        expect((await fetchBytes(`/storage/logos/${a_id}`, { 'If-None-Match': etag })).status).toBe(304);
        const range = await fetchBytes(`/storage/logos/${a_id}`, { Range: 'bytes=0-7' });
        expect(range.status).toBe(206);
        expect(Buffer.compare(range.body, PNG.subarray(0, 8))).toBe(0);

        // A new logo replaces the old one; the validator changes, so browsers fetch it again.
        expect((await putBytes((await uploadUrl(root, a_id)).url, JPEG)).status).toBe(200);
        expect((await root.put(`/api/1/accounts/${a_id}/haslogo`, { a_has_logo: true })).status).toBe(200);
        const replaced = await fetchBytes(`/storage/logos/${a_id}`, { 'If-None-Match': etag });
        expect(replaced.status).toBe(200);
        expect(replaced.headers.get('content-type')).toBe('image/jpeg');
        expect(Buffer.compare(replaced.body, JPEG)).toBe(0);

        const removed = await root.put(`/api/1/accounts/${a_id}/haslogo`, { a_has_logo: false });
        expect(removed.status).toBe(200);
        expect(removed.body).toMatchObject({ a_has_logo: false, logo_url: null });
        expect((await fetchBytes(`/storage/logos/${a_id}`)).status).toBe(404);
        expect(await storedKeys(t)).not.toContain(`logos/${a_id}`);
      });

      it('refuses the flag before an upload (400 logo_not_uploaded), and validates the body', async () => {
        const { a_id } = await t.account('No Upload');
        const res = await root.put(`/api/1/accounts/${a_id}/haslogo`, {});
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('logo_not_uploaded');
        const bad = await root.put(`/api/1/accounts/${a_id}/haslogo`, { a_has_logo: 'yes' });
        expect(bad.status).toBe(400);
        expect(bad.body.fields).toEqual({ a_has_logo: 'error_invalid_value' });
        expect(await flag(a_id)).toBe(false);
      });

      it('refuses a logo that is not an image, and one that is too large; keeps nothing', async () => {
        const { a_id } = await t.account('Bad Logo');
        const put = await putBytes((await uploadUrl(root, a_id)).url, PDF);
        if (driver === 'local') expect(put.status).toBe(415);
        const res = await root.put(`/api/1/accounts/${a_id}/haslogo`, {});
        expect(res.status).toBe(400);
        expect(res.body.code).toBe(driver === 'local' ? 'logo_not_uploaded' : 'file_content_mismatch');
        expect(await storedKeys(t)).not.toContain(`logos/${a_id}`);
        expect(await flag(a_id)).toBe(false);

        const big = await putBytes((await uploadUrl(root, a_id)).url, bigPng(MAX + 1));
        if (driver === 'local') expect(big.status).toBe(413);
        const res2 = await root.put(`/api/1/accounts/${a_id}/haslogo`, {});
        expect(res2.status).toBe(driver === 'local' ? 400 : 413);
        expect(await storedKeys(t)).not.toContain(`logos/${a_id}`);
        expect(await flag(a_id)).toBe(false);

        const empty = await putBytes((await uploadUrl(root, a_id)).url, Buffer.alloc(0));
        if (driver === 'local') expect(empty.status).toBe(400);
        const res3 = await root.put(`/api/1/accounts/${a_id}/haslogo`, {});
        expect(res3.status).toBe(400);
        expect(res3.body.code).toBe(driver === 'local' ? 'logo_not_uploaded' : 'file_empty');
        expect(await storedKeys(t)).not.toContain(`logos/${a_id}`);
      });

      if (driver === 'local') {
        // s3rver does not verify signatures: tampering is only testable against our own endpoint.
        it("refuses one account's logo URL for another account (403), writes nothing", async () => {
          const a = await t.account('Signed A');
          const b = await t.account('Signed B');
          const signed = await uploadUrl(root, a.a_id);
          const res = await putBytes(signed.url.replace(a.a_id, b.a_id), PNG);
          expect(res.status).toBe(403);
          expect(JSON.parse(res.text).code).toBe('signature_invalid');
          expect(await storedKeys(t)).not.toContain(`logos/${b.a_id}`);
        });
      }

      it('gates on entry_accounts update: 401, 403 for a member, 403 without CSRF, 404 for unknown accounts', async () => {
        const { a_id } = await t.account('Guarded Logo');
        const anon = t.client();
        expect((await anon.get(`/api/1/accounts/${a_id}/uploadurl/logo`)).status).toBe(401);
        expect((await anon.put(`/api/1/accounts/${a_id}/haslogo`, {})).status).toBe(401);
        const member = await t.signedIn('member');
        await t.member(a_id, member.userId, 'root'); // even root in the account: entry_accounts is checked on u_role
        expect((await member.get(`/api/1/accounts/${a_id}/uploadurl/logo`)).status).toBe(403);
        expect((await member.put(`/api/1/accounts/${a_id}/haslogo`, {})).status).toBe(403);
        const superadmin = await t.signedIn('superadmin');
        expect((await superadmin.get(`/api/1/accounts/${a_id}/uploadurl/logo`)).status).toBe(200);
        const noCsrf = await root.put(`/api/1/accounts/${a_id}/haslogo`, {}, { csrf: false });
        expect(noCsrf.status).toBe(403);
        expect(noCsrf.body.code).toBe('csrf_invalid');
        const unknown = crypto.randomUUID();
        expect((await root.get(`/api/1/accounts/${unknown}/uploadurl/logo`)).status).toBe(404);
        expect((await root.put(`/api/1/accounts/${unknown}/haslogo`, {})).status).toBe(404);
        expect((await root.get('/api/1/accounts/not-a-uuid/uploadurl/logo')).status).toBe(404);
        expect(await flag(a_id)).toBe(false);
        // The accounts routes behind this router still answer.
        expect((await root.get(`/api/1/accounts/${a_id}`)).body.a_name).toBe('Guarded Logo');
      });
    });
  });
}
