import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, type Signed, type TestApp } from '../helpers/app.js';
import { bigPng, CSV, DRIVERS, JPEG, mp4, PDF, PNG, putBytes, storedKeys, startStorageApp, type S3Server } from '../helpers/storage.js';
import { createAsset, signAssets, uploadAssetFile } from '../helpers/assets.js';
import { accountPath, createRecord, startConsoleApp } from '../helpers/console.js';
import { objectKey } from '../../api/storage/keys.js';
import { carouselGroups, carousels, codes, CODE_RE } from '../../resources/carousels.js';
import { collections } from '../../resources/collections.js';

type Row = Record<string, unknown>;
const MAX = 256 * 1024; // storageConfig's maxFileBytes
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
/** The object key of an asset's bytes from its public URL (/storage/assets/<a>/<yyyy>/<mm>/<id>?v=n). */
const keyOf = (url: string) => url.replace(/^\/storage\//, '').replace(/\?.*$/, '');

// Uploads, checks, replacement and deletion of assets for both storage drivers, on PGlite and (with TEST_DATABASE_URL)
// PostgreSQL.
for (const driver of DRIVERS) {
  describe(`assets, ${driver} driver`, () => {
    describeEachDb(`assets API (${driver})`, (kind) => {
      let t: TestApp;
      let s3: S3Server | undefined;
      let close: () => Promise<void>;
      let root: Signed;
      let a = '';
      let b = '';

      beforeAll(async () => {
        ({ t, s3, close } = await startStorageApp(kind, driver));
        root = await t.signedIn('root');
        a = (await t.account('Assets A')).a_id;
        b = (await t.account('Assets B')).a_id;
      });
      afterAll(() => close?.());

      const assetsUrl = (accountId: string, rest = '') => `/api/1/accounts/${accountId}/assets${rest}`;
      const fetchBytes = async (url: string) => {
        const res = await fetch(t.baseUrl + url);
        return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
      };
      const uploadsLeft = async (id: string) => Number((await t.db('storage_uploads').where('su_id', id).count({ n: '*' }).first())!.n);
      const register = (accountId: string, file: Row, fields: Row = {}) =>
        root.post(assetsUrl(accountId), { as_title: 'Stand photo', as_name: `a${crypto.randomUUID().slice(0, 8)}`, ...file, ...fields });

      it('signs under the account, stores the bytes and a thumbnail, registers them with the SHA-256 of the bytes, and serves both', async () => {
        const signed = await signAssets(t, root, a, 2);
        const [file, thumb] = signed;
        expect(file.path).toMatch(new RegExp(`^/assets/${a}/\\d{4}/(0[1-9]|1[0-2])$`));
        expect(thumb.path).toBe(file.path);
        expect(file.url.startsWith(driver === 'local' ? `${t.baseUrl}/storage/assets/${a}/` : s3!.endpoint)).toBe(true);
        const bytes = bigPng(40_000);
        expect((await putBytes(file.url, bytes)).status).toBe(200);
        expect((await putBytes(thumb.url, JPEG)).status).toBe(200);

        const res = await root.post(assetsUrl(a), {
          as_title: 'Hall map',
          as_name: 'hall-map',
          as_fileid: file.id,
          fs_filename: 'Hall map.PNG',
          fs_type: 'image/png',
          fs_path: file.path,
          as_thumb_fileid: thumb.id,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body).toMatchObject({
          id: res.body.as_id,
          as_title: 'Hall map',
          as_name: 'hall-map',
          as_fileid: file.id,
          as_filename: 'Hall map.PNG',
          as_type: 'image/png',
          as_size: 40_000,
          as_sha256: sha256(bytes),
          as_version: 1,
          as_thumb_fileid: thumb.id,
          kind: 'image',
          url: `/storage${file.path}/${file.id}?v=1`,
          thumbnail_url: `/storage${file.path}/${thumb.id}`,
        });
        // The storage path and who uploaded it stay on the server.
        expect(res.body).not.toHaveProperty('as_path');
        expect(res.body).not.toHaveProperty('as_created_by');
        expect((await t.db('assets').where('as_id', res.body.as_id).first()).as_created_by).toBe(root.userId);
        // The signed uploads are claimed.
        expect(await uploadsLeft(file.id)).toBe(0);
        expect(await uploadsLeft(thumb.id)).toBe(0);

        const served = await fetchBytes(res.body.url);
        expect(served.status).toBe(200);
        expect(served.type).toBe('image/png');
        expect(sha256(served.body)).toBe(res.body.as_sha256);
        const thumbnail = await fetchBytes(res.body.thumbnail_url);
        expect(thumbnail.status).toBe(200);
        expect(thumbnail.type).toBe('image/jpeg');
        expect(Buffer.compare(thumbnail.body, JPEG)).toBe(0);

        const one = await root.get(assetsUrl(a, `/${res.body.as_id}`));
        expect(one.body).toMatchObject({ as_sha256: sha256(bytes), thumbnail_url: res.body.thumbnail_url, kind: 'image' });
      });

      it('lists with the prefix search and filters by a set of types (what the console calls a kind)', async () => {
        const video = await createAsset(t, root, a, { as_title: 'Keynote teaser', as_name: 'keynote-teaser' }, mp4(20_000), 'teaser.mp4');
        const brochure = await createAsset(t, root, a, { as_title: 'Keynote brochure', as_name: 'brochure' }, PDF, 'brochure.pdf');
        expect(video).toMatchObject({ as_type: 'video/mp4', kind: 'video', thumbnail_url: null });
        expect(brochure).toMatchObject({ as_type: 'application/pdf', kind: 'pdf' });
        const list = async (filter: Row) => {
          const res = await root.get(
            `${assetsUrl(a)}?filter=${encodeURIComponent(JSON.stringify(filter))}&sort=${encodeURIComponent('["as_title","ASC"]')}&range=${encodeURIComponent('[0,24]')}`,
          );
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return (res.body as Row[]).map((r) => r.as_name);
        };
        expect(await list({ q: 'keyn' })).toEqual(['brochure', 'keynote-teaser']);
        expect(await list({ q: 'keyn', as_type: ['video/mp4', 'video/webm'] })).toEqual(['keynote-teaser']);
        expect(await list({ q: 'brochure' })).toEqual(['brochure']);
      });

      it('refuses a file that cannot be an asset (400 asset_type_not_allowed) and deletes its bytes', async () => {
        // Image bytes under a name no asset may have: refused at registration, whatever the driver.
        const file = await uploadAssetFile(t, root, a, PNG, 'leads.csv');
        const key = objectKey(String(file.fs_path), String(file.as_fileid));
        expect(await storedKeys(t)).toContain(key);
        const res = await register(a, file);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'asset_type_not_allowed', fields: { fs_filename: 'error_asset_type_not_allowed' } });
        expect(await storedKeys(t)).not.toContain(key);
        expect(await uploadsLeft(String(file.as_fileid))).toBe(0);
        // The upload is gone: a second try with a better name finds nothing to register.
        const again = await register(a, { ...file, fs_filename: 'leads.png' });
        expect(again.status).toBe(400);
        expect(again.body.code).toBe('asset_upload_not_found');

        // A real CSV: the local store refuses the bytes as they arrive; S3 takes them and the registration refuses.
        const [csv] = await signAssets(t, root, a);
        const put = await putBytes(csv.url, CSV);
        if (driver === 'local') {
          expect(put.status).toBe(415);
          expect(await storedKeys(t)).not.toContain(objectKey(csv.path, csv.id));
        } else {
          expect(put.status).toBe(200);
          const refused = await register(a, { as_fileid: csv.id, fs_filename: 'leads.csv', fs_type: 'text/csv', fs_path: csv.path });
          expect(refused.status).toBe(400);
          expect(refused.body.code).toBe('asset_type_not_allowed');
          expect(await storedKeys(t)).not.toContain(objectKey(csv.path, csv.id));
        }
        expect(await t.db('assets').where('as_accountid', a).where('as_filename', 'like', 'leads%').first()).toBeUndefined();
      });

      it('refuses bytes that do not match the name (400 file_content_mismatch) and deletes them', async () => {
        const file = await uploadAssetFile(t, root, a, PNG, 'photo.jpg');
        const res = await register(a, file);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'file_content_mismatch', fields: { fs_type: 'error_file_content_mismatch' } });
        expect(await storedKeys(t)).not.toContain(objectKey(String(file.fs_path), String(file.as_fileid)));
        // A thumbnail that is no image: refused too.
        const withThumb = await uploadAssetFile(t, root, a, PNG, 'photo.png', PDF);
        const thumbRes = await register(a, withThumb);
        expect(thumbRes.status).toBe(400);
        expect(thumbRes.body.fields).toEqual({ fs_type: 'error_file_content_mismatch' });
        expect(await storedKeys(t)).not.toContain(objectKey(String(withThumb.fs_path), String(withThumb.as_thumb_fileid)));
      });

      it('refuses a file above the size limit with 413 file_too_large and keeps none of it', async () => {
        const [s] = await signAssets(t, root, a);
        const res = await root.post(assetsUrl(a, '/sign'), { ids: [crypto.randomUUID()] });
        expect(res.body[0].max_bytes).toBe(MAX);
        const put = await putBytes(s.url, bigPng(MAX + 1));
        if (driver === 'local') {
          // The local store stops at the limit.
          expect(put.status).toBe(413);
        } else {
          // s3rver checks no limit (a real bucket's policy would): the registration does.
          expect(put.status).toBe(200);
          const reg = await register(a, { as_fileid: s.id, fs_filename: 'huge.png', fs_type: 'image/png', fs_path: s.path });
          expect(reg.status).toBe(413);
          expect(reg.body).toMatchObject({ code: 'file_too_large', fields: { as_fileid: 'error_file_too_large' } });
        }
        expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
      });

      it('a taken name answers 409 name_taken and keeps the upload, so the same bytes register under another name', async () => {
        await createAsset(t, root, a, { as_name: 'logo-main' });
        const file = await uploadAssetFile(t, root, a, PNG, 'logo.png', JPEG);
        const taken = await register(a, file, { as_name: 'logo-main' });
        expect(taken.status).toBe(409);
        expect(taken.body).toMatchObject({ code: 'name_taken', fields: { as_name: 'error_name_taken' } });
        expect(await uploadsLeft(String(file.as_fileid))).toBe(1);
        const retry = await register(a, file, { as_name: 'logo-alt' });
        expect(retry.status).toBe(201);
        expect(retry.body.as_thumb_fileid).toBe(file.as_thumb_fileid);
        // The same name in another account is fine.
        expect((await createAsset(t, root, b, { as_name: 'logo-main' })).as_name).toBe('logo-main');
      });

      it('replaces the bytes under the same id: version + 1, the old URLs answer 404, the new URL serves the new bytes', async () => {
        const first = await uploadAssetFile(t, root, a, PNG, 'banner.png', JPEG);
        const created = (await register(a, first, { as_name: 'banner' })).body;
        expect(created.as_version).toBe(1);
        const newBytes = Buffer.concat([JPEG, Buffer.alloc(500, 3)]);
        const second = await uploadAssetFile(t, root, a, newBytes, 'banner-2026.jpg', PNG);
        const res = await root.put(assetsUrl(a, `/${created.id}/file`), second);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({
          id: created.id,
          as_name: 'banner',
          as_version: 2,
          as_fileid: second.as_fileid,
          as_filename: 'banner-2026.jpg',
          as_type: 'image/jpeg',
          as_size: newBytes.length,
          as_sha256: sha256(newBytes),
          url: `/storage${second.fs_path}/${second.as_fileid}?v=2`,
        });
        expect((await fetchBytes(created.url)).status).toBe(404);
        expect((await fetchBytes(created.thumbnail_url)).status).toBe(404);
        const served = await fetchBytes(res.body.url);
        expect(served.status).toBe(200);
        expect(Buffer.compare(served.body, newBytes)).toBe(0);
        expect(Buffer.compare((await fetchBytes(res.body.thumbnail_url)).body, PNG)).toBe(0);
        const keys = await storedKeys(t);
        expect(keys).not.toContain(keyOf(created.url));
        expect(keys).not.toContain(keyOf(created.thumbnail_url));
        expect((await root.get(assetsUrl(a, `/${created.id}`))).body.as_version).toBe(2);
        expect(Number((await t.db('assets').where('as_name', 'banner').where('as_accountid', a).count({ n: '*' }).first())!.n)).toBe(1);

        // A refused replacement changes nothing.
        const bad = await uploadAssetFile(t, root, a, PNG, 'banner.csv');
        const refused = await root.put(assetsUrl(a, `/${created.id}/file`), bad);
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe('asset_type_not_allowed');
        expect((await root.get(assetsUrl(a, `/${created.id}`))).body).toMatchObject({ as_version: 2, as_fileid: second.as_fileid });
        // Unknown, malformed and another account's ids: 404.
        const good = await uploadAssetFile(t, root, a);
        for (const id of [MISSING, 'nope']) expect((await root.put(assetsUrl(a, `/${id}/file`), good)).status, id).toBe(404);
        expect((await root.put(assetsUrl(b, `/${created.id}/file`), good)).status).toBe(404);
      });

      it('a delete moves the asset to the trash (its bytes kept, no longer served); the purge removes the record and its bytes', async () => {
        const file = await uploadAssetFile(t, root, a, PNG, 'gone.png', JPEG);
        const created = (await register(a, file)).body;
        const keys = [keyOf(created.url), keyOf(created.thumbnail_url)];
        for (const k of keys) expect(await storedKeys(t)).toContain(k);
        const del = await root.delete(assetsUrl(a, `/${created.id}`));
        expect(del.status).toBe(200);
        expect((await root.get(assetsUrl(a, `/${created.id}`))).status).toBe(404);
        // In the trash: the bytes wait for the purge (a restore brings the asset back whole), but nobody is served them.
        for (const k of keys) expect(await storedKeys(t)).toContain(k);
        expect((await fetchBytes(created.url)).status).toBe(404);
        expect((await root.delete(assetsUrl(a, `/${created.id}`))).status).toBe(404);
        const purge = await root.delete(assetsUrl(a, `/${created.id}/purge`));
        expect(purge.status).toBe(200);
        expect(await t.db('assets').where('as_id', created.id).first()).toBeUndefined();
        for (const k of keys) expect(await storedKeys(t)).not.toContain(k);
        expect((await fetchBytes(created.url)).status).toBe(404);
        expect((await root.delete(assetsUrl(a, `/${created.id}/purge`))).status).toBe(404);
      });

      it('a member reads assets but cannot upload, register, replace or delete; no session 401; no CSRF token 403', async () => {
        const member = await t.signedIn('member');
        await t.member(a, member.userId, 'member');
        const asset = await createAsset(t, root, a);
        const list = await member.get(assetsUrl(a));
        expect(list.status).toBe(200);
        expect((list.body as Row[]).some((r) => r.id === asset.id)).toBe(true);
        expect((await member.post(assetsUrl(a, '/sign'), { ids: [crypto.randomUUID()] })).status).toBe(403);
        // Even with an upload someone else signed and completed.
        const file = await uploadAssetFile(t, root, a);
        expect((await member.post(assetsUrl(a), { as_title: 'Mine', as_name: 'mine', ...file })).status).toBe(403);
        expect((await member.put(assetsUrl(a, `/${asset.id}/file`), file)).status).toBe(403);
        expect((await member.put(assetsUrl(a, `/${asset.id}`), { as_title: 'Renamed' })).status).toBe(403);
        expect((await member.delete(assetsUrl(a, `/${asset.id}`))).status).toBe(403);
        expect(await uploadsLeft(String(file.as_fileid))).toBe(1);
        expect((await t.db('assets').where('as_id', String(asset.id)).first()).as_title).toBe(asset.as_title);
        // Not a member of B at all: B's assets are not there for them.
        expect((await member.get(assetsUrl(b))).status).toBe(404);

        const anonymous = t.client();
        expect((await anonymous.get(assetsUrl(a))).status).toBe(401);
        expect((await anonymous.post(assetsUrl(a, '/sign'), { ids: [crypto.randomUUID()] })).status).toBe(401);
        const noToken = await root.post(assetsUrl(a, '/sign'), { ids: [crypto.randomUUID()] }, { csrf: false });
        expect(noToken.status).toBe(403);
        expect(noToken.body.code).toBe('csrf_invalid');
      });

      it("another account's upload cannot be registered, re-signed or read here", async () => {
        const inB = await uploadAssetFile(t, root, b, PNG, 'b.png');
        const res = await register(a, inB);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'asset_upload_not_found', fields: { as_fileid: 'error_upload_not_found' } });
        expect(await t.db('assets').where('as_fileid', String(inB.as_fileid)).first()).toBeUndefined();
        // Its id cannot be signed again for A either.
        const resign = await root.post(assetsUrl(a, '/sign'), { ids: [inB.as_fileid] });
        expect(resign.status).toBe(409);
        expect(resign.body.code).toBe('file_already_exists');
        // A thumbnail signed for B is not A's either.
        const own = await uploadAssetFile(t, root, a);
        const mixed = await register(a, { ...own, as_thumb_fileid: inB.as_fileid });
        expect(mixed.status).toBe(400);
        // B still registers its own upload, and A cannot see that asset.
        const inBAsset = await register(b, inB);
        expect(inBAsset.status).toBe(201);
        expect((await root.get(assetsUrl(a, `/${inBAsset.body.id}`))).status).toBe(404);
        expect((await root.delete(assetsUrl(a, `/${inBAsset.body.id}`))).status).toBe(404);
        // An id an asset already uses is never signed again.
        const again = await root.post(assetsUrl(b, '/sign'), { ids: [inB.as_fileid] });
        expect(again.status).toBe(409);
      });

      it('validates the sign and register bodies: 400 with fields', async () => {
        const id = crypto.randomUUID();
        const cases: [unknown, Record<string, string>][] = [
          [{}, { ids: 'error_ids_required' }],
          [{ ids: [] }, { ids: 'error_ids_required' }],
          [{ ids: ['../../etc'] }, { 'ids.0': 'error_uuid_invalid' }],
        ];
        for (const [body, fields] of cases) {
          const res = await root.post(assetsUrl(a, '/sign'), body);
          expect(res.status, JSON.stringify(body)).toBe(400);
          expect(res.body.fields).toEqual(fields);
        }
        const file = await uploadAssetFile(t, root, a);
        const missing = await root.post(assetsUrl(a), { ...file });
        expect(missing.status).toBe(400);
        expect(Object.keys(missing.body.fields).sort()).toEqual(['as_name', 'as_title']);
        const badName = await register(a, file, { as_name: 'Not An Identifier' });
        expect(badName.status).toBe(400);
        expect(badName.body.fields).toEqual({ as_name: 'error_identifier_invalid' });
        const badPath = await register(a, { ...file, fs_path: '/assets/../../etc' });
        expect(badPath.status).toBe(400);
        const notSigned = await register(a, { ...file, as_fileid: id });
        expect(notSigned.status).toBe(400);
        expect(notSigned.body.code).toBe('asset_upload_not_found');
        // None of that used up the good upload.
        expect((await register(a, file)).status).toBe(201);
      });
    });
  });
}

// Ordered items: a collection's assets and a carousel group's carousels (storage driver irrelevant: local).
describeEachDb('collection assets and group carousels', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a = '';
  let b = '';

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Items'));
  });
  afterAll(() => t?.close());

  it('a collection gets a random public token (never from the client) and keeps its assets in the order given', async () => {
    const [x, y, z] = [await createAsset(t, root, a), await createAsset(t, root, a), await createAsset(t, root, a)];
    // co_token is the server's: a client's value is dropped, never stored.
    const created = await root.post(accountPath(a, 'collections'), { co_title: 'Press kit', co_name: 'press-kit', co_token: 'mine' });
    expect(created.status).toBe(201);
    const co = created.body;
    expect(co.co_token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await root.put(`${accountPath(a, 'collections')}/${co.id}`, { co_token: 'mine' })).body.co_token).toBe(co.co_token);
    const items = `${accountPath(a, 'collections')}/${co.id}/assets`;
    expect((await root.get(items)).body).toEqual({ ids: [] });
    let res = await root.put(items, { ids: [z.id, x.id, y.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ids: [z.id, x.id, y.id] });
    expect((await root.get(items)).body).toEqual({ ids: [z.id, x.id, y.id] });
    res = await root.put(items, { ids: [y.id, z.id] });
    expect(res.body).toEqual({ ids: [y.id, z.id] });
    expect((await root.get(items)).body.ids).toEqual([y.id, z.id]);
    // Deleting an asset (to the trash) takes it out of the collection; a restore puts it back in its place, a purge
    // takes it out for good.
    expect((await root.delete(`${accountPath(a, 'assets')}/${y.id}`)).status).toBe(200);
    expect((await root.get(items)).body.ids).toEqual([z.id]);
    // A change of the collection meanwhile keeps the trashed asset's place.
    expect((await root.put(items, { ids: [z.id, x.id] })).body).toEqual({ ids: [z.id, x.id] });
    expect((await root.post(`${accountPath(a, 'assets')}/${y.id}/restore`)).status).toBe(200);
    // Back in the collection at its old position (0: level with z, which now holds that position too).
    const restored: string[] = (await root.get(items)).body.ids;
    expect([...restored].sort()).toEqual([x.id, y.id, z.id].sort());
    expect(restored.filter((id) => id !== y.id)).toEqual([z.id, x.id]);
    expect(restored.indexOf(String(y.id))).toBeLessThan(restored.indexOf(String(x.id)));
    expect((await root.delete(`${accountPath(a, 'assets')}/${y.id}`)).status).toBe(200);
    expect((await root.delete(`${accountPath(a, 'assets')}/${y.id}/purge`)).status).toBe(200);
    expect((await root.get(items)).body.ids).toEqual([z.id, x.id]);
    expect((await root.put(items, { ids: [] })).body).toEqual({ ids: [] });
  });

  it("refuses another account's asset, unknown, duplicate and malformed ids with 400, and changes nothing", async () => {
    const mine = await createAsset(t, root, a);
    const theirs = await createAsset(t, root, b);
    const co = await createRecord(root, a, collections);
    const items = `${accountPath(a, 'collections')}/${co.id}/assets`;
    await root.put(items, { ids: [mine.id] });
    const cases: [unknown, string][] = [
      [{ ids: [mine.id, theirs.id] }, 'error_reference_invalid'],
      [{ ids: [MISSING] }, 'error_reference_invalid'],
      [{ ids: [mine.id, mine.id] }, 'error_ids_duplicate'],
      [{ ids: ['not-a-uuid'] }, 'error_uuid_invalid'],
      [{}, 'error_ids_required'],
    ];
    for (const [body, key] of cases) {
      const res = await root.put(items, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.values(res.body.fields)).toContain(key);
    }
    expect((await root.get(items)).body.ids).toEqual([mine.id]);
  });

  it("another account's collection or group answers 404, like an unknown or malformed id; a member reads but cannot change", async () => {
    const theirs = await createRecord(root, b, collections);
    const theirGroup = await createRecord(root, b, carouselGroups);
    const mine = await createAsset(t, root, a);
    for (const id of [theirs.id, MISSING, 'nope']) {
      expect((await root.get(`${accountPath(a, 'collections')}/${id}/assets`)).status, String(id)).toBe(404);
      expect((await root.put(`${accountPath(a, 'collections')}/${id}/assets`, { ids: [mine.id] })).status, String(id)).toBe(404);
    }
    for (const id of [theirGroup.id, MISSING]) {
      expect((await root.get(`${accountPath(a, 'carousel-groups')}/${id}/items`)).status).toBe(404);
      expect((await root.put(`${accountPath(a, 'carousel-groups')}/${id}/items`, { ids: [] })).status).toBe(404);
    }
    expect(await t.db('collection_assets').where('ca_collectionid', String(theirs.id)).first()).toBeUndefined();

    const member = await t.signedIn('member');
    await t.member(a, member.userId, 'member');
    const co = await createRecord(root, a, collections);
    const items = `${accountPath(a, 'collections')}/${co.id}/assets`;
    await root.put(items, { ids: [mine.id] });
    expect((await member.get(items)).body).toEqual({ ids: [mine.id] });
    expect((await member.put(items, { ids: [] })).status).toBe(403);
    expect((await root.get(items)).body.ids).toEqual([mine.id]);
    expect((await t.client().get(items)).status).toBe(401);
  });

  it('a carousel group keeps its carousels in order, refuses foreign ones, and its codes are generated', async () => {
    const [c1, c2, c3] = [await createRecord(root, a, carousels), await createRecord(root, a, carousels), await createRecord(root, a, carousels)];
    const foreign = await createRecord(root, b, carousels);
    const group = (await root.post(accountPath(a, 'carousel-groups'), { cg_title: 'Hall 1', cg_standby_carouselid: c3.id })).body;
    expect(group.cg_standby_carouselid).toBe(c3.id);
    const items = `${accountPath(a, 'carousel-groups')}/${group.id}/items`;
    expect((await root.get(items)).body).toEqual({ ids: [] });
    expect((await root.put(items, { ids: [c2.id, c1.id] })).body).toEqual({ ids: [c2.id, c1.id] });
    expect((await root.put(items, { ids: [c1.id, c2.id, c3.id] })).body.ids).toEqual([c1.id, c2.id, c3.id]);
    const refused = await root.put(items, { ids: [c1.id, foreign.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ ids: 'error_reference_invalid' });
    expect((await root.get(items)).body.ids).toEqual([c1.id, c2.id, c3.id]);
    // A standby carousel of another account is refused as well.
    const badStandby = await root.put(`${accountPath(a, 'carousel-groups')}/${group.id}`, { cg_standby_carouselid: foreign.id });
    expect(badStandby.status).toBe(400);
    expect(badStandby.body.fields).toEqual({ cg_standby_carouselid: 'error_reference_invalid' });

    const code = await createRecord(root, a, codes, { cc_groupid: group.id, cc_title: 'Totem at the entrance' });
    expect(code.cc_code).toMatch(CODE_RE);
    expect(String(code.cc_code)).toHaveLength(10);
    const listed = await root.get(`${accountPath(a, 'codes')}?filter=${encodeURIComponent(JSON.stringify({ cc_groupid: group.id }))}`);
    expect((listed.body as Row[]).map((r) => r.cc_code)).toEqual([code.cc_code]);
    // A code for another account's group: 400 (not the caller's group).
    const theirGroup = await createRecord(root, b, carouselGroups);
    expect((await root.post(accountPath(a, 'codes'), { cc_groupid: theirGroup.id })).status).toBe(400);
  });
});
