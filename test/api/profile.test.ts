import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, withGrant, type Signed, type TestApp } from '../helpers/app.js';

/** A JPEG as file-type sees one: the SOI marker and a JFIF header, padded. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(300, 1), Buffer.from([0xff, 0xd9])]);

/** The caller's profile and profile picture (entry_profile), for the capture app. */
describeEachDb('profile', (kind) => {
  let t: TestApp;
  let member: Signed;
  let other: Signed;

  beforeAll(async () => {
    t = await startApp(kind);
    member = await t.signedIn('member');
    other = await t.signedIn('member');
  });
  afterAll(() => t?.close());

  const putPicture = (client: Signed, body: Buffer, type = 'image/jpeg', csrf = true) =>
    client
      .raw('put', '/api/1/profile/picture')
      .set('Content-Type', type)
      .set('X-CSRF-Token', csrf ? (client.csrf ?? '') : '')
      .send(body);

  it('needs a session', async () => {
    expect((await t.client().get('/api/1/profile')).status).toBe(401);
    expect((await t.client().get('/api/1/profile/picture')).status).toBe(401);
  });

  it('shows the caller without a picture, and updates the names', async () => {
    const res = await member.get('/api/1/profile');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ u_id: member.userId, id: member.userId, has_picture: false, picture_url: null });
    expect(res.body.u_password).toBeUndefined();
    const put = await member.put('/api/1/profile', { u_first_name: '  Nina ', u_last_name: 'Visser' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ u_first_name: 'Nina', u_last_name: 'Visser' });
    const bad = await member.put('/api/1/profile', { u_first_name: 'x'.repeat(101) });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ u_first_name: 'error_too_long' });
  });

  it('stores a picture from the body, serves it only to its owner, and removes it', async () => {
    await member.get('/api/1/auth/me'); // CSRF cookie
    const up = await putPicture(member, JPEG);
    expect(up.status).toBe(200);
    expect(up.body.has_picture).toBe(true);
    expect(up.body.picture_url).toMatch(/^\/api\/1\/profile\/picture\?v=/);
    const got = await member
      .raw('get', '/api/1/profile/picture')
      .buffer(true)
      .parse((res, cb) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => cb(null, Buffer.concat(parts)));
      });
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['cache-control']).toContain('private');
    expect(Buffer.compare(got.body as Buffer, JPEG)).toBe(0);
    // another user has its own (none)
    expect((await other.get('/api/1/profile/picture')).status).toBe(404);
    expect((await other.get('/api/1/profile')).body.has_picture).toBe(false);

    const del = await member.delete('/api/1/profile/picture');
    expect(del.status).toBe(200);
    expect(del.body.has_picture).toBe(false);
    expect((await member.get('/api/1/profile/picture')).status).toBe(404);
  });

  it('refuses what is not a picture, an empty or too large one, and a call without the CSRF header', async () => {
    await member.get('/api/1/auth/me');
    expect((await putPicture(member, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')).status).toBe(415);
    const disguised = await putPicture(member, Buffer.from('just some text, not an image at all'), 'image/jpeg');
    expect(disguised.status).toBe(415);
    expect(disguised.body.code).toBe('file_type_not_allowed');
    expect((await putPicture(member, Buffer.alloc(0))).status).toBe(400);
    expect((await putPicture(member, Buffer.alloc(2 * 1024 * 1024 + 1, 0xff))).status).toBe(413);
    expect((await putPicture(member, JPEG, 'image/jpeg', false)).status).toBe(403);
    expect((await member.get('/api/1/profile')).body.has_picture).toBe(false);
  });

  it('follows entry_profile: without update the picture cannot change; without read nothing shows', async () => {
    await member.get('/api/1/auth/me');
    await withGrant(t, 'member', 'entry_profile', 1, async () => {
      expect((await putPicture(member, JPEG)).status).toBe(403);
      expect((await member.put('/api/1/profile', { u_first_name: 'X' })).status).toBe(403);
      expect((await member.get('/api/1/profile')).status).toBe(200);
    });
    await withGrant(t, 'member', 'entry_profile', 0, async () => {
      expect((await member.get('/api/1/profile')).status).toBe(403);
    });
  });
});
