import { describe, expect, it } from 'vitest';
import { signUpload, verifyUpload } from '../../api/storage/signing.js';
import { logoKey, newFilesPath, objectKey, parseObjectPath } from '../../api/storage/keys.js';
import { contentDisposition, parseRange } from '../../api/storage/http.js';
import { allowedFor, contentMatches, detectType, looksLikeText } from '../../api/storage/fileTypes.js';
import { fileRegister, signRequest, typeForExtension } from '../../resources/files.js';
import { folderCreate } from '../../resources/folders.js';
import { CSV, JPEG, mp4, PDF, PNG, ZIP } from '../helpers/storage.js';

const ID = '6023868c-9838-45d6-a48b-2ae04952a3c0';
const SECRET = 'unit-secret';

describe('upload signatures', () => {
  const key = `files/2026/11/${ID}`;
  const query = (qs: string) => Object.fromEntries(new URLSearchParams(qs));
  const now = Date.UTC(2026, 10, 21, 12);
  const expires = Math.floor(now / 1000) + 900;

  it('accepts its own signature until it expires, and says which', () => {
    const qs = signUpload(SECRET, { key, expires, maxBytes: 1000 });
    expect(verifyUpload(SECRET, key, query(qs), now)).toEqual({ ok: true, grant: { key, expires, maxBytes: 1000 } });
    expect(verifyUpload(SECRET, key, query(qs), (expires + 1) * 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('binds the key, the expiry, the size limit and the secret', () => {
    const q = query(signUpload(SECRET, { key, expires, maxBytes: 1000 }));
    expect(verifyUpload(SECRET, `files/2026/11/${ID.replace('6', '7')}`, q, now).ok).toBe(false);
    expect(verifyUpload(SECRET, `logos/${ID}`, q, now).ok).toBe(false);
    expect(verifyUpload(SECRET, key, { ...q, max: '1001' }, now).ok).toBe(false);
    expect(verifyUpload(SECRET, key, { ...q, expires: String(expires + 60) }, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyUpload('another-secret', key, q, now).ok).toBe(false);
  });

  it('refuses malformed queries', () => {
    const q = query(signUpload(SECRET, { key, expires, maxBytes: 1000 }));
    for (const bad of [{}, { ...q, signature: undefined }, { ...q, signature: ['a', 'b'] }, { ...q, max: '-1' }, { ...q, expires: '1e3' }, { ...q, signature: '' }]) {
      expect(verifyUpload(SECRET, key, bad as Record<string, unknown>, now)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe('object keys', () => {
  it('builds keys only from generated paths and UUIDs', () => {
    expect(objectKey('/files/2026/11', ID)).toBe(`files/2026/11/${ID}`);
    expect(logoKey(ID.toUpperCase())).toBe(`logos/${ID}`);
    expect(newFilesPath(new Date(Date.UTC(2026, 0, 5)))).toBe('/files/2026/01');
    for (const [p, id] of [
      ['/files/../etc', ID],
      ['/files/2026/13', ID],
      ['/etc', ID],
      ['/files/2026/11', '../../x'],
      ['/files/2026/11', 'not-a-uuid'],
    ]) {
      expect(() => objectKey(p, id)).toThrow();
    }
  });

  it('parses served paths and nothing else', () => {
    expect(parseObjectPath(`/files/2026/11/${ID}`)).toEqual({ kind: 'file', path: '/files/2026/11', id: ID });
    expect(parseObjectPath(`/logos/${ID}`)).toEqual({ kind: 'logo', path: '/logos', id: ID });
    for (const p of [
      `/files/2026/11/../${ID}`,
      `/files/2026/11/${ID}/`,
      `/files/2026/11/%2e%2e/${ID}`,
      `//files/2026/11/${ID}`,
      `/files/2026/11/${ID}.png`,
      '/logos/../../etc/passwd',
      `/other/${ID}`,
      '/',
    ]) {
      expect(parseObjectPath(p), p).toBeNull();
    }
  });
});

describe('ranges and dispositions', () => {
  it('parses single byte ranges', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Ignored (whole file): malformed, reversed, several ranges, other units.
    for (const h of ['bytes=9-0', 'bytes=0-1,5-6', 'items=0-1', 'bytes=-', 'bytes=a-b']) expect(parseRange(h, 100), h).toBeNull();
  });

  it('writes an ASCII fallback and the exact UTF-8 name (RFC 5987)', () => {
    expect(contentDisposition('inline', 'plain.png')).toBe(`inline; filename="plain.png"; filename*=UTF-8''plain.png`);
    expect(contentDisposition('attachment', 'Überblick "Q1" (final)*.pdf')).toBe(
      `attachment; filename="_berblick _Q1_ (final)*.pdf"; filename*=UTF-8''%C3%9Cberblick%20%22Q1%22%20%28final%29%2A.pdf`,
    );
    expect(contentDisposition('inline', '日本.png')).toBe(`inline; filename="__.png"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.png`);
  });
});

describe('type checks by the first bytes', () => {
  it('recognises the allowed types and refuses the rest', async () => {
    expect(await detectType(PNG, true)).toBe('image/png');
    expect(await detectType(JPEG, true)).toBe('image/jpeg');
    expect(await detectType(PDF, true)).toBe('application/pdf');
    expect(await detectType(mp4(5000), false)).toBe('video/mp4');
    expect(await detectType(CSV, true)).toBe('text');
    expect(await detectType(ZIP, true)).toBe('application/zip');
    expect(await detectType(Buffer.alloc(0), true)).toBeUndefined();
    expect(allowedFor('file', await detectType(ZIP, true))).toBe(false);
    expect(allowedFor('file', await detectType(PDF, true))).toBe(true);
    expect(allowedFor('logo', await detectType(PDF, true))).toBe(false);
    expect(allowedFor('logo', await detectType(PNG, true))).toBe(true);
    expect(contentMatches(await detectType(PNG, true), typeForExtension('jpg')!)).toBe(false);
    expect(contentMatches(await detectType(CSV, true), typeForExtension('csv')!)).toBe(true);
    expect(contentMatches(await detectType(CSV, true), typeForExtension('png')!)).toBe(false);
  });

  it('takes UTF-8 without control characters as text, allowing a character cut at the end of a sample', () => {
    expect(looksLikeText(Buffer.from('\ufeffa,b\r\n1,2\t3\n'), true)).toBe(true);
    const cut = Buffer.from('é');
    expect(looksLikeText(Buffer.concat([Buffer.from('ok '), cut.subarray(0, 1)]), false)).toBe(true);
    expect(looksLikeText(Buffer.concat([Buffer.from('ok '), cut.subarray(0, 1)]), true)).toBe(false);
    expect(looksLikeText(Buffer.from('nul\u0000byte'), true)).toBe(false);
    expect(looksLikeText(Buffer.from([0x61, 0xff, 0x62]), true)).toBe(false);
  });
});

describe('schemas', () => {
  const good = { fs_id: ID, fs_folderid: null, fs_filename: 'Photo.JPG', fs_type: 'image/jpeg', fs_path: '/files/2026/11' };

  it('derives the type from the extension and accepts aliases or an empty type', () => {
    expect(fileRegister.parse(good)).toMatchObject({ fs_filename: 'Photo.JPG' });
    expect(fileRegister.safeParse({ ...good, fs_type: 'image/jpg' }).success).toBe(true);
    expect(fileRegister.safeParse({ ...good, fs_type: '' }).success).toBe(true);
    expect(fileRegister.safeParse({ ...good, fs_type: 'image/png' }).success).toBe(false);
    expect(fileRegister.safeParse({ ...good, fs_filename: 'noextension' }).success).toBe(false);
    expect(fileRegister.safeParse({ ...good, fs_filename: '.png' }).success).toBe(false);
    expect(fileRegister.safeParse({ ...good, fs_filename: 'page.html', fs_type: 'text/html' }).success).toBe(false);
    expect(fileRegister.safeParse({ ...good, fs_filename: 'icon.svg', fs_type: 'image/svg+xml' }).success).toBe(false);
  });

  it('takes "root", null or nothing as the root destination', () => {
    expect(signRequest.parse({ ids: [ID], destination: 'root' }).destination).toBeNull();
    expect(signRequest.parse({ ids: [ID] }).destination).toBeNull();
    expect(signRequest.parse({ ids: [ID.toUpperCase()], destination: ID }).ids).toEqual([ID]);
    expect(signRequest.safeParse({ ids: Array.from({ length: 101 }, () => crypto.randomUUID()) }).success).toBe(false);
  });

  it('trims folder titles', () => {
    expect(folderCreate.parse({ fo_title: '  Photos  ' })).toEqual({ fo_title: 'Photos', fo_parentid: null });
  });
});
