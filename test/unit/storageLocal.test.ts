import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalDriver } from '../../api/storage/local.js';
import { bigPng, PNG } from '../helpers/storage.js';

const ID = '6023868c-9838-45d6-a48b-2ae04952a3c0';
const KEY = `files/2026/11/${ID}`;
const dirs: string[] = [];
function driver(): LocalDriver {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-local-'));
  dirs.push(dir);
  return new LocalDriver(dir, 'secret');
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const accept = async () => true;
const everything = (d: LocalDriver) => fs.readdirSync(d.root, { recursive: true }).filter((f) => fs.statSync(path.join(d.root, String(f))).isFile());

describe('local driver', () => {
  it('streams an upload to its key and reads it back, whole or in part', async () => {
    const d = driver();
    const data = bigPng(3 * 1024 * 1024);
    const chunks = Array.from({ length: 48 }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536));
    expect(await d.receive(KEY, Readable.from(chunks), { maxBytes: data.length, accept })).toEqual({ size: data.length });
    expect(everything(d)).toEqual([KEY]);
    expect((await d.stat(KEY))!.size).toBe(data.length);
    expect(Buffer.compare(await d.readHead(KEY, 16), data.subarray(0, 16))).toBe(0);
    const part: Buffer[] = [];
    for await (const c of await d.read(KEY, { start: 10, end: 19 })) part.push(c as Buffer);
    expect(Buffer.compare(Buffer.concat(part), data.subarray(10, 20))).toBe(0);
    await d.remove(KEY);
    await d.remove(KEY); // gone already: no error
    expect(await d.stat(KEY)).toBeNull();
  });

  it('leaves nothing when the source fails halfway, the limit is passed, or the type is refused', async () => {
    const d = driver();
    const broken = new PassThrough();
    const pending = d.receive(KEY, broken, { maxBytes: 1e9, accept });
    broken.write(bigPng(200 * 1024));
    await new Promise((r) => setTimeout(r, 20));
    broken.destroy(new Error('connection reset'));
    await expect(pending).rejects.toThrow('connection reset');
    await expect(d.receive(KEY, Readable.from([bigPng(10_000)]), { maxBytes: 9_999, accept })).rejects.toMatchObject({ status: 413 });
    await expect(d.receive(KEY, Readable.from([PNG]), { maxBytes: 1e6, accept: async () => false })).rejects.toMatchObject({ status: 415 });
    await expect(d.receive(KEY, Readable.from([]), { maxBytes: 1e6, accept })).rejects.toMatchObject({ status: 400, code: 'file_empty' });
    expect(everything(d)).toEqual([]);
  });

  it('never resolves a key outside its root', () => {
    const d = driver();
    for (const k of ['../x', `files/2026/11/../../../${ID}`, `/etc/${ID}`, `files/2026/11/${ID}/..`, 'logos/..', `LOGOS/${ID}`]) {
      expect(() => d.file(k), k).toThrow();
    }
    expect(d.file(`logos/${ID}`)).toBe(path.join(d.root, 'logos', ID));
  });

  it('signs root-relative URLs for its own PUT endpoint', async () => {
    const signed = await driver().signUpload(KEY, { maxBytes: 100, ttlSeconds: 60 });
    expect(signed.startsWith(`/storage/${KEY}?`)).toBe(true);
    const url = new URL(signed, 'http://example.test');
    expect([...url.searchParams.keys()]).toEqual(['expires', 'max', 'signature']);
  });
});
