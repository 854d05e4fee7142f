import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import type { TestApp, TestClient } from '../helpers/app.js';
import { bigPng, CSV, cutOffPut, DRIVERS, JPEG, mp4, PDF, PNG, putBytes, rawPut, storedKeys, until, ZIP, type S3Server, startStorageApp } from '../helpers/storage.js';
import { storageOf } from '../../api/storage/index.js';
import { objectKey } from '../../api/storage/keys.js';

const uuid = () => crypto.randomUUID();
const MAX = 256 * 1024; // storageConfig's maxFileBytes

// The same API suite for both drivers, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
for (const driver of DRIVERS) {
  describe(`storage, ${driver} driver`, () => {
    describeEachDb(`storage API (${driver})`, (kind) => {
      let t: TestApp;
      let s3: S3Server | undefined;
      let close: () => Promise<void>;
      let root: TestClient & { userId: string };

      beforeAll(async () => {
        ({ t, s3, close } = await startStorageApp(kind, driver));
        root = await t.signedIn('root');
      });
      afterAll(() => close?.());

      const folder = async (title: string, parent: string | null = null) => {
        const res = await root.post('/api/1/storage/folders', { fo_title: title, fo_parentid: parent });
        expect(res.status).toBe(201);
        return res.body.fo_id as string;
      };
      const sign = async (ids: string[], destination: string | null = null) => {
        const res = await root.post('/api/1/storage/sign', { ids, destination });
        expect(res.status).toBe(200);
        // local: root-relative URLs on the API's origin; s3: absolute presigned URLs
        for (const s of res.body) expect(s.url.startsWith(driver === 'local' ? '/storage/files/' : s3!.endpoint)).toBe(true);
        return (res.body as { id: string; url: string; path: string }[]).map((s) => ({ ...s, url: new URL(s.url, t.baseUrl).href }));
      };
      /** The spec's upload: sign, PUT the bytes, register. */
      const upload = async (filename: string, bytes: Buffer, folderId: string | null, fs_type = '') => {
        const [s] = await sign([uuid()], folderId);
        const put = await putBytes(s.url, bytes);
        expect(put.status).toBe(200);
        const reg = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: folderId, fs_filename: filename, fs_type, fs_path: s.path });
        return { signed: s, reg };
      };
      const fetchBytes = async (url: string, headers: Record<string, string> = {}) => {
        const res = await fetch(t.baseUrl + url, { headers });
        return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      };
      const count = async (table: string) => Number((await t.db(table).count({ n: '*' }).first())!.n);

      describe('folders', () => {
        it('creates, lists root and child folders, and answers the breadcrumb root first', async () => {
          const a = await folder('Alpha');
          const b = await folder('beta', a);
          const c = await folder('Gamma', b);
          await folder('Aardvark', a);
          const roots = await root.get('/api/1/storage/folders');
          expect(roots.status).toBe(200);
          expect(roots.body.map((f: { fo_title: string }) => f.fo_title)).toContain('Alpha');
          expect(roots.body.every((f: { fo_parentid: string | null }) => f.fo_parentid === null)).toBe(true);
          const children = await root.get(`/api/1/storage/folders/${a}`);
          expect(children.body.map((f: { fo_title: string; id: string }) => [f.fo_title, f.id])).toEqual([
            ['Aardvark', expect.any(String)],
            ['beta', b],
          ]);
          const parents = await root.get(`/api/1/storage/folders/${c}/parents`);
          expect(parents.status).toBe(200);
          expect(parents.body.map((f: { fo_title: string }) => f.fo_title)).toEqual(['Alpha', 'beta', 'Gamma']);
          expect((await root.get(`/api/1/storage/folders/${a}/parents`)).body.map((f: { fo_id: string }) => f.fo_id)).toEqual([a]);
          expect((await root.get('/api/1/storage/folders/root/parents')).body).toEqual([]);
          expect((await root.get('/api/1/storage/folders/root')).body).toEqual(roots.body);
        });

        it('renames and moves, and refuses a move into itself or a descendant with 409 folder_move_cycle', async () => {
          const a = await folder('Move A');
          const b = await folder('Move B', a);
          const c = await folder('Move C', b);
          const renamed = await root.put('/api/1/storage/folders', { fo_id: a, fo_title: 'Moved A', fo_parentid: null });
          expect(renamed.status).toBe(200);
          expect(renamed.body).toMatchObject({ fo_id: a, fo_title: 'Moved A', fo_parentid: null, id: a });
          for (const target of [a, b, c]) {
            const res = await root.put('/api/1/storage/folders', { fo_id: a, fo_parentid: target });
            expect(res.status).toBe(409);
            expect(res.body.code).toBe('folder_move_cycle');
          }
          expect((await t.db('folders').where('fo_id', a).first()).fo_parentid).toBeNull();
          // c to the root, then b under c: legal now
          expect((await root.put('/api/1/storage/folders', { fo_id: c, fo_parentid: null })).status).toBe(200);
          const moved = await root.put('/api/1/storage/folders', { fo_id: b, fo_title: 'Move B', fo_parentid: c });
          expect(moved.status).toBe(200);
          expect((await root.get(`/api/1/storage/folders/${b}/parents`)).body.map((f: { fo_title: string }) => f.fo_title)).toEqual(['Move C', 'Move B']);
        });

        it('validates bodies: 400 with fields, nothing changed', async () => {
          const before = await count('folders');
          const cases: [unknown, Record<string, string>][] = [
            [{}, { fo_title: 'error_title_required' }],
            [{ fo_title: '   ' }, { fo_title: 'error_title_required' }],
            [{ fo_title: 'x'.repeat(201) }, { fo_title: 'error_too_long' }],
            [{ fo_title: 'bad\nname' }, { fo_title: 'error_title_invalid' }],
            [{ fo_title: 'ok', fo_parentid: '../..' }, { fo_parentid: 'error_uuid_invalid' }],
            [{ fo_title: 'ok', fo_parentid: uuid() }, { fo_parentid: 'error_folder_not_found' }],
          ];
          for (const [body, fields] of cases) {
            const res = await root.post('/api/1/storage/folders', body);
            expect(res.status, JSON.stringify(body)).toBe(400);
            expect(res.body.code).toBe('validation_failed');
            expect(res.body.fields).toEqual(fields);
          }
          const a = await folder('Valid');
          const put = await root.put('/api/1/storage/folders', { fo_id: a, fo_title: '' });
          expect(put.status).toBe(400);
          expect(put.body.fields).toEqual({ fo_title: 'error_title_required' });
          expect((await root.put('/api/1/storage/folders', { fo_title: 'x' })).body.fields).toEqual({ fo_id: 'error_uuid_invalid' });
          expect((await root.put('/api/1/storage/folders', { fo_id: a, fo_parentid: uuid() })).body.fields).toEqual({ fo_parentid: 'error_folder_not_found' });
          expect(await count('folders')).toBe(before + 1);
          expect((await t.db('folders').where('fo_id', a).first()).fo_title).toBe('Valid');
        });

        it('keeps a title like "../../etc" as a plain title: nothing reaches the storage', async () => {
          const before = await storedKeys(t);
          const id = await folder('../../etc/passwd');
          expect((await root.get(`/api/1/storage/folders/${id}/parents`)).body[0].fo_title).toBe('../../etc/passwd');
          expect(await storedKeys(t)).toEqual(before);
        });

        it('deletes only an empty folder (409 folder_not_empty), and answers 404 for unknown or malformed ids', async () => {
          const a = await folder('Full');
          const b = await folder('Child', a);
          let res = await root.delete(`/api/1/storage/folders/${a}`);
          expect(res.status).toBe(409);
          expect(res.body.code).toBe('folder_not_empty');
          expect((await root.delete(`/api/1/storage/folders/${b}`)).status).toBe(200);
          await upload('note.csv', CSV, a);
          res = await root.delete(`/api/1/storage/folders/${a}`);
          expect(res.status).toBe(409);
          expect(await t.db('folders').where('fo_id', a).first()).toBeTruthy();
          const unknown = uuid();
          for (const url of [
            `/api/1/storage/folders/${unknown}`,
            `/api/1/storage/folders/${unknown}/parents`,
            `/api/1/storage/folders/${unknown}/files`,
            '/api/1/storage/folders/not-a-uuid',
            `/api/1/storage/files/${unknown}`,
          ]) {
            expect((await root.get(url)).status, url).toBe(404);
          }
          expect((await root.delete(`/api/1/storage/folders/${unknown}`)).status).toBe(404);
          expect((await root.delete('/api/1/storage/folders/..')).status).toBe(404);
          expect((await root.delete(`/api/1/storage/files/${unknown}`)).status).toBe(404);
          expect((await root.put('/api/1/storage/folders', { fo_id: unknown, fo_title: 'x' })).status).toBe(404);
        });
      });

      describe('uploads', () => {
        it('signs, uploads, registers, lists, serves (with ranges and validators) and deletes a file', async () => {
          const dir = await folder('Media');
          const [s1, s2] = await sign([uuid(), uuid()], dir);
          expect(s1.path).toMatch(/^\/files\/\d{4}\/\d{2}$/);
          expect(s2.path).toBe(s1.path);
          const video = mp4(100_000);
          expect((await putBytes(s1.url, video)).status).toBe(200);
          expect((await putBytes(s2.url, PNG)).status).toBe(200);
          const reg1 = await root.post('/api/1/storage/files', { fs_id: s1.id, fs_folderid: dir, fs_filename: 'Keynote é 2026.MP4', fs_type: 'video/mp4', fs_path: s1.path });
          expect(reg1.status).toBe(201);
          expect(reg1.body).toMatchObject({
            fs_id: s1.id,
            fs_folderid: dir,
            fs_filename: 'Keynote é 2026.MP4',
            fs_type: 'video/mp4',
            fs_extension: 'mp4',
            fs_size: 100_000,
            fs_path: s1.path,
            id: s1.id,
            url: `/storage${s1.path}/${s1.id}`,
          });
          const reg2 = await root.post('/api/1/storage/files', { fs_id: s2.id, fs_folderid: dir, fs_filename: 'logo.png', fs_type: 'image/png', fs_path: s2.path });
          expect(reg2.status).toBe(201);

          const list = await root.get(`/api/1/storage/folders/${dir}/files`);
          expect(list.body.map((f: { fs_filename: string }) => f.fs_filename)).toEqual(['Keynote é 2026.MP4', 'logo.png']);
          expect((await root.get(`/api/1/storage/files/${s2.id}`)).body.fs_size).toBe(PNG.length);

          // Served without a session (public capability URL).
          const img = await fetchBytes(`/storage${s2.path}/${s2.id}`);
          expect(img.status).toBe(200);
          expect(img.headers.get('content-type')).toBe('image/png');
          expect(Buffer.compare(img.body, PNG)).toBe(0);
          expect(img.headers.get('content-disposition')).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
          expect(img.headers.get('cache-control')).toContain('immutable');
          expect(img.headers.get('etag')).toBe(`"${s2.id}"`);
          expect(img.headers.get('last-modified')).toBeTruthy();
          expect(img.headers.get('set-cookie')).toBeNull();
          expect(img.headers.get('x-content-type-options')).toBe('nosniff');
          expect(img.headers.get('content-security-policy')).toMatch(/^default-src 'none';.*object-src 'self'/);
          expect((await fetchBytes(`/storage${s2.path}/${s2.id}`, { 'If-None-Match': img.headers.get('etag')! })).status).toBe(304);
          expect((await fetchBytes(`/storage${s2.path}/${s2.id}`, { 'If-Modified-Since': img.headers.get('last-modified')! })).status).toBe(304);

          const url = `/storage${s1.path}/${s1.id}`;
          const full = await fetchBytes(url);
          expect(full.headers.get('content-type')).toBe('video/mp4');
          expect(full.headers.get('content-disposition')).toBe(`inline; filename="Keynote _ 2026.MP4"; filename*=UTF-8''Keynote%20%C3%A9%202026.MP4`);
          expect(full.headers.get('accept-ranges')).toBe('bytes');
          expect(full.body.length).toBe(100_000);
          const part = await fetchBytes(url, { Range: 'bytes=1000-1999' });
          expect(part.status).toBe(206);
          expect(part.headers.get('content-range')).toBe('bytes 1000-1999/100000');
          expect(part.headers.get('content-length')).toBe('1000');
          expect(Buffer.compare(part.body, video.subarray(1000, 2000))).toBe(0);
          const tail = await fetchBytes(url, { Range: 'bytes=-500' });
          expect(tail.status).toBe(206);
          expect(Buffer.compare(tail.body, video.subarray(99_500))).toBe(0);
          const open = await fetchBytes(url, { Range: 'bytes=99990-' });
          expect(open.headers.get('content-range')).toBe('bytes 99990-99999/100000');
          expect(Buffer.compare(open.body, video.subarray(99_990))).toBe(0);
          const outside = await fetchBytes(url, { Range: 'bytes=200000-' });
          expect(outside.status).toBe(416);
          expect(outside.headers.get('content-range')).toBe('bytes */100000');
          // A stale If-Range gets the whole file.
          expect((await fetchBytes(url, { Range: 'bytes=0-9', 'If-Range': '"other"' })).status).toBe(200);
          const head = await fetch(t.baseUrl + url, { method: 'HEAD' });
          expect(head.status).toBe(200);
          expect(head.headers.get('content-length')).toBe('100000');

          const del = await root.delete(`/api/1/storage/files/${s1.id}`);
          expect(del.status).toBe(200);
          expect(del.body.fs_id).toBe(s1.id);
          expect((await fetchBytes(url)).status).toBe(404);
          expect(await storedKeys(t)).not.toContain(objectKey(s1.path, s1.id));
          expect((await root.get(`/api/1/storage/folders/${dir}/files`)).body.map((f: { fs_id: string }) => f.fs_id)).toEqual([s2.id]);
          expect((await root.delete(`/api/1/storage/files/${s1.id}`)).status).toBe(404);
        });

        it('uploads to the root level (destination "root"), sends other types as downloads', async () => {
          const [s] = await sign([uuid()], 'root' as unknown as null);
          expect((await putBytes(s.url, CSV)).status).toBe(200);
          const reg = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: null, fs_filename: 'leads.csv', fs_type: 'application/vnd.ms-excel', fs_path: s.path });
          expect(reg.status).toBe(201);
          expect(reg.body.fs_type).toBe('text/csv');
          expect((await root.get('/api/1/storage/folders/root/files')).body.map((f: { fs_id: string }) => f.fs_id)).toContain(s.id);
          const res = await fetchBytes(reg.body.url);
          expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
          expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="leads.csv"/);
          expect(res.body.toString()).toBe(CSV.toString());
        });

        it('validates the sign request: 400 with fields, nothing signed', async () => {
          const before = await count('storage_uploads');
          const id = uuid();
          const cases: [unknown, Record<string, string>][] = [
            [{}, { ids: 'error_ids_required' }],
            [{ ids: [] }, { ids: 'error_ids_required' }],
            [{ ids: ['../../etc/passwd'] }, { 'ids.0': 'error_uuid_invalid' }],
            [{ ids: [id, id] }, { ids: 'error_ids_duplicate' }],
            [{ ids: [uuid()], destination: '../logos' }, { destination: 'error_destination_invalid' }],
            [{ ids: [uuid()], destination: uuid() }, { destination: 'error_folder_not_found' }],
          ];
          for (const [body, fields] of cases) {
            const res = await root.post('/api/1/storage/sign', body);
            expect(res.status, JSON.stringify(body)).toBe(400);
            expect(res.body.fields).toEqual(fields);
          }
          expect(await count('storage_uploads')).toBe(before);
        });

        it('refuses path traversal in every name field of a registration, and keeps nothing', async () => {
          const dir = await folder('Traversal');
          const [s] = await sign([uuid()], dir);
          expect((await putBytes(s.url, PNG)).status).toBe(200);
          const good = { fs_id: s.id, fs_folderid: dir, fs_filename: 'a.png', fs_type: 'image/png', fs_path: s.path };
          const cases: [Record<string, unknown>, Record<string, string>][] = [
            [{ fs_filename: '../../../etc/passwd.png' }, { fs_filename: 'error_filename_invalid' }],
            [{ fs_filename: '..\\..\\boot.png' }, { fs_filename: 'error_filename_invalid' }],
            [{ fs_filename: '..' }, { fs_filename: 'error_filename_invalid' }],
            [{ fs_filename: 'a\u0000.png' }, { fs_filename: 'error_filename_invalid' }],
            [{ fs_path: '/files/../../etc' }, { fs_path: 'error_path_invalid' }],
            [{ fs_path: '/logos' }, { fs_path: 'error_path_invalid' }],
            [{ fs_path: '/files/2026/11/../../../x' }, { fs_path: 'error_path_invalid' }],
            [{ fs_id: '../../etc/passwd' }, { fs_id: 'error_uuid_invalid' }],
            [{ fs_folderid: '../..' }, { fs_folderid: 'error_uuid_invalid' }],
            [{ fs_filename: 'evil.exe', fs_type: 'application/octet-stream' }, { fs_filename: 'error_file_type_not_allowed' }],
            [{ fs_filename: 'a.pdf' }, { fs_type: 'error_file_type_mismatch' }],
            [{ fs_path: s.path === '/files/2000/01' ? '/files/2000/02' : '/files/2000/01' }, { fs_path: 'error_upload_mismatch' }],
            [{ fs_folderid: null }, { fs_folderid: 'error_upload_mismatch' }],
            [{ fs_id: uuid() }, { fs_id: 'error_upload_not_found' }],
          ];
          for (const [change, fields] of cases) {
            const res = await root.post('/api/1/storage/files', { ...good, ...change });
            expect(res.status, JSON.stringify(change)).toBe(400);
            expect(res.body.fields).toEqual(fields);
          }
          expect(await t.db('files').where('fs_id', s.id).first()).toBeUndefined();
          // The good registration still works afterwards, once.
          expect((await root.post('/api/1/storage/files', good)).status).toBe(201);
          const twice = await root.post('/api/1/storage/files', good);
          expect(twice.status).toBe(409);
          expect(twice.body.code).toBe('file_already_exists');
          const resign = await root.post('/api/1/storage/sign', { ids: [s.id], destination: dir });
          expect(resign.status).toBe(409);
        });

        it('refuses traversal in served and uploaded URLs', async () => {
          const before = await storedKeys(t);
          for (const p of [
            '/storage/../api/1/auth/me',
            '/storage/files/2026/11/..%2f..%2f..%2fetc%2fpasswd',
            '/storage/files/%2e%2e/%2e%2e/x',
            `/storage/files/2026/11/${uuid()}/..`,
          ]) {
            const res = await t.client().get(p);
            expect([400, 404], p).toContain(res.status);
          }
          for (const p of [
            `/storage/files/2026/11/../../../../tmp/${uuid()}?expires=9999999999&max=100&signature=x`,
            `/storage/files/2026/11/..%2F..%2F${uuid()}?expires=9999999999&max=100&signature=x`,
          ]) {
            const res = await rawPut(t.baseUrl, p, PNG);
            expect([400, 403, 404], p).toContain(res.status);
          }
          expect(await storedKeys(t)).toEqual(before);
        });

        it('refuses a file whose bytes do not match its type, and removes the bytes', async () => {
          const dir = await folder('Mismatch');
          const before = await count('files');
          // Text bytes named .png: stored by the PUT (text is allowed), refused at registration.
          const [s] = await sign([uuid()], dir);
          expect((await putBytes(s.url, Buffer.from('just some text, not an image'))).status).toBe(200);
          const res = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: dir, fs_filename: 'photo.png', fs_type: 'image/png', fs_path: s.path });
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('file_content_mismatch');
          expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
          // PNG bytes named .jpg
          const [s2] = await sign([uuid()], dir);
          await putBytes(s2.url, PNG);
          const res2 = await root.post('/api/1/storage/files', { fs_id: s2.id, fs_folderid: dir, fs_filename: 'photo.jpg', fs_type: 'image/jpeg', fs_path: s2.path });
          expect(res2.body.code).toBe('file_content_mismatch');
          expect(await storedKeys(t)).not.toContain(objectKey(s2.path, s2.id));
          // Bytes of a type not on the allow-list at all (a ZIP): the local driver refuses the PUT itself.
          const [s3] = await sign([uuid()], dir);
          const put = await putBytes(s3.url, ZIP);
          if (driver === 'local') {
            expect(put.status).toBe(415);
            expect(JSON.parse(put.text).code).toBe('file_type_not_allowed');
          }
          const res3 = await root.post('/api/1/storage/files', { fs_id: s3.id, fs_folderid: dir, fs_filename: 'doc.pdf', fs_type: 'application/pdf', fs_path: s3.path });
          expect(res3.status).toBe(400);
          expect(await storedKeys(t)).not.toContain(objectKey(s3.path, s3.id));
          expect(await count('files')).toBe(before);
          // The matching ones go through.
          expect((await upload('scan.pdf', PDF, dir, 'application/pdf')).reg.status).toBe(201);
          expect((await upload('photo.jpeg', JPEG, dir, 'image/jpeg')).reg.status).toBe(201);
        });

        it('refuses an oversized file and keeps nothing', async () => {
          const before = await count('files');
          const [s] = await sign([uuid()]);
          const put = await putBytes(s.url, bigPng(MAX + 1));
          if (driver === 'local') {
            // Refused from Content-Length before a byte is written.
            expect(put.status).toBe(413);
            expect(JSON.parse(put.text).code).toBe('file_too_large');
          }
          const reg = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: null, fs_filename: 'big.png', fs_type: 'image/png', fs_path: s.path });
          // local: nothing was stored, so there is no upload to register; s3: the object is deleted at registration.
          expect(reg.status).toBe(driver === 'local' ? 400 : 413);
          expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
          expect(await count('files')).toBe(before);
          // Exactly the limit is fine.
          expect((await upload('limit.png', bigPng(MAX), null)).reg.status).toBe(201);
        });

        it('refuses an empty file and keeps nothing', async () => {
          const [s] = await sign([uuid()]);
          const put = await putBytes(s.url, Buffer.alloc(0));
          if (driver === 'local') expect(JSON.parse(put.text).code).toBe('file_empty');
          const reg = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: null, fs_filename: 'empty.txt', fs_type: 'text/plain', fs_path: s.path });
          expect(reg.status).toBe(400);
          expect(reg.body.code).toBe(driver === 'local' ? 'validation_failed' : 'file_empty');
          expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
          expect(await t.db('files').where('fs_id', s.id).first()).toBeUndefined();
        });

        it('refuses an expired upload URL with 403 and writes nothing', async () => {
          const [s] = await sign([uuid()]);
          const short = await storageOf(t.context).signUpload(objectKey(s.path, s.id), { maxBytes: MAX, ttlSeconds: 1 });
          await new Promise((r) => setTimeout(r, 2100));
          const put = await putBytes(new URL(short, t.baseUrl).href, PNG);
          expect(put.status).toBe(403);
          if (driver === 'local') expect(JSON.parse(put.text).code).toBe('signature_expired');
          expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
        });

        it('an upload cut off halfway leaves no file and no record', async () => {
          const before = await storedKeys(t);
          const [s] = await sign([uuid()]);
          const whole = bigPng(200 * 1024);
          await cutOffPut(s.url, whole.length, whole.subarray(0, 100 * 1024));
          // The server notices the dropped connection and removes its temporary file.
          expect(await until(async () => JSON.stringify(await storedKeys(t)) === JSON.stringify(before))).toBe(true);
          const reg = await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: null, fs_filename: 'cut.png', fs_type: 'image/png', fs_path: s.path });
          expect(reg.status).toBe(400);
          expect(reg.body.fields).toEqual({ fs_id: 'error_upload_not_found' });
          expect(await t.db('files').where('fs_id', s.id).first()).toBeUndefined();
          // A retry with the same signed URL completes.
          expect((await putBytes(s.url, whole)).status).toBe(200);
          expect((await root.post('/api/1/storage/files', { fs_id: s.id, fs_folderid: null, fs_filename: 'cut.png', fs_type: 'image/png', fs_path: s.path })).status).toBe(201);
        });

        it('sweeps signed uploads never registered: the row and the bytes', async () => {
          const [s] = await sign([uuid()]);
          expect((await putBytes(s.url, PNG)).status).toBe(200);
          await t
            .db('storage_uploads')
            .where('su_id', s.id)
            .update({ su_expires_at: new Date(Date.now() - 2 * 60 * 60 * 1000) });
          await sign([uuid()]);
          expect(await t.db('storage_uploads').where('su_id', s.id).first()).toBeUndefined();
          expect(await storedKeys(t)).not.toContain(objectKey(s.path, s.id));
        });

        if (driver === 'local') {
          // s3rver does not verify signatures, so tampering is only testable against our own endpoint.
          it('refuses a tampered upload URL with 403 and writes nothing', async () => {
            const before = await storedKeys(t);
            const [s] = await sign([uuid()]);
            const u = new URL(s.url);
            const sig = u.searchParams.get('signature')!;
            const variants: string[] = [];
            const v1 = new URL(u);
            v1.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
            variants.push(v1.toString());
            const v2 = new URL(u);
            v2.searchParams.set('max', String(MAX * 100));
            variants.push(v2.toString());
            const v3 = new URL(u);
            v3.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
            variants.push(v3.toString());
            variants.push(s.url.replace(s.id, uuid()));
            variants.push(s.url.replace(s.path, '/logos'));
            const v6 = new URL(u);
            v6.searchParams.delete('signature');
            variants.push(v6.toString());
            for (const v of variants) {
              const res = await putBytes(v, PNG);
              expect(res.status, v).toBe(403);
              expect(JSON.parse(res.text).code).toBe('signature_invalid');
            }
            expect(await storedKeys(t)).toEqual(before);
          });

          it('counts the bytes of an upload without Content-Length: 413 past the limit, nothing written', async () => {
            const before = await storedKeys(t);
            const [s] = await sign([uuid()]);
            const data = bigPng(MAX + 64 * 1024);
            const stream = new ReadableStream({
              start(controller) {
                for (let i = 0; i < data.length; i += 16 * 1024) controller.enqueue(new Uint8Array(data.subarray(i, i + 16 * 1024)));
                controller.close();
              },
            });
            const res = await fetch(s.url, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
            expect(res.status).toBe(413);
            expect(await until(async () => JSON.stringify(await storedKeys(t)) === JSON.stringify(before))).toBe(true);
          });

          it('does not let a still-valid URL replace the bytes of a registered file', async () => {
            const { signed, reg } = await upload('keep.png', PNG, null, 'image/png');
            expect(reg.status).toBe(201);
            const res = await putBytes(signed.url, JPEG);
            expect(res.status).toBe(409);
            const served = await fetchBytes(reg.body.url);
            expect(Buffer.compare(served.body, PNG)).toBe(0);
          });
        }
      });

      describe('access', () => {
        const routes = (ids: { folder: string; file: string }) =>
          [
            ['get', '/api/1/storage/folders', undefined],
            ['get', `/api/1/storage/folders/${ids.folder}`, undefined],
            ['get', `/api/1/storage/folders/${ids.folder}/parents`, undefined],
            ['get', `/api/1/storage/folders/${ids.folder}/files`, undefined],
            ['get', `/api/1/storage/files/${ids.file}`, undefined],
            ['post', '/api/1/storage/folders', { fo_title: 'Nope' }],
            ['put', '/api/1/storage/folders', { fo_id: ids.folder, fo_title: 'Nope' }],
            ['delete', `/api/1/storage/folders/${ids.folder}`, undefined],
            ['post', '/api/1/storage/sign', { ids: [uuid()], destination: ids.folder }],
            ['post', '/api/1/storage/files', { fs_id: uuid(), fs_folderid: ids.folder, fs_filename: 'a.png', fs_type: 'image/png', fs_path: '/files/2026/11' }],
            ['delete', `/api/1/storage/files/${ids.file}`, undefined],
          ] as const;

        let ids: { folder: string; file: string };
        beforeAll(async () => {
          const f = await folder('Guarded');
          const { reg } = await upload('guarded.png', PNG, f, 'image/png');
          ids = { folder: f, file: reg.body.fs_id };
        });

        const unchanged = async () => {
          expect((await t.db('folders').where('fo_id', ids.folder).first()).fo_title).toBe('Guarded');
          expect(await t.db('files').where('fs_id', ids.file).first()).toBeTruthy();
        };

        it('answers 401 without a session on every route', async () => {
          const anon = t.client();
          for (const [method, url, body] of routes(ids)) {
            const res = await anon.send(method, url, body);
            expect(res.status, `${method} ${url}`).toBe(401);
            expect(res.body.code).toBe('not_logged_in');
          }
          await unchanged();
        });

        it('answers 403 to users without entry_files (superadmin, admin, member) on every route', async () => {
          for (const role of ['superadmin', 'admin', 'member']) {
            const c = await t.signedIn(role);
            for (const [method, url, body] of routes(ids)) {
              const res = await c.send(method, url, body);
              expect(res.status, `${role} ${method} ${url}`).toBe(403);
              expect(res.body.code).toBe('forbidden');
            }
          }
          await unchanged();
        });

        it('answers 403 csrf_invalid to state-changing calls without the CSRF header', async () => {
          for (const [method, url, body] of routes(ids)) {
            if (method === 'get') continue;
            const res = await root.send(method, url, body, { csrf: false });
            expect(res.status, `${method} ${url}`).toBe(403);
            expect(res.body.code).toBe('csrf_invalid');
          }
          await unchanged();
        });
      });
    });
  });
}
