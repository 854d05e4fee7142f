import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { startApp, type Signed, type TestApp } from '../helpers/app.js';
import { accountPath } from '../helpers/console.js';
import { createAsset, uploadAssetFile } from '../helpers/assets.js';
import { makeCode, makeGroup, simpleCarousel } from '../helpers/carousels.js';
import { bigPng, mp4, PNG } from '../helpers/storage.js';
import { INDEX_FILE, PARTIAL_DIR, readIndex, startMediaServer, syncMedia, SyncError, type SyncOptions } from '../../scripts/lib/mediaSync.js';
import { ROOT } from '../helpers/imports.js';
import { tsxArgs } from '../helpers/tsxProcess.js';

type Row = Record<string, unknown>;
type Seen = { url: string; range?: string; inm?: string; status: number };

/**
 * Local media sync (`npm run media:sync`, scripts/lib/mediaSync.ts) against the real API: the first sync fetches and
 * checks every asset of the code's group; the second answers 304 and fetches nothing; a replaced asset is the only
 * one fetched; a download whose SHA-256 does not match is refused and never renamed into place; a download cut
 * half-way resumes with a Range request; unlisted files go; the serve mode answers health, assets by version, ranges
 * and CORS; the CLI.
 */
describeEachDb('local media sync', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string;
  let code: string;
  let dir: string;
  let group: Row;
  const bytes: Record<string, Buffer> = {};
  const ids: Record<string, string> = {};
  let carousels: Row[];

  beforeAll(async () => {
    t = await startApp(kind);
    root = await t.signedIn('root');
    a = (await t.account('Sync A')).a_id;
    bytes.photo = bigPng(40_000);
    bytes.clip = mp4(300_000);
    bytes.banner = bigPng(20_000);
    ids.photo = String((await createAsset(t, root, a, { as_name: 'photo' }, bytes.photo, 'photo.png')).id);
    ids.clip = String((await createAsset(t, root, a, { as_name: 'clip' }, bytes.clip, 'clip.mp4')).id);
    ids.banner = String((await createAsset(t, root, a, { as_name: 'banner' }, bytes.banner, 'banner.png')).id);
    // an asset of the account no carousel shows: not the group's, so not synced
    ids.unused = String((await createAsset(t, root, a, { as_name: 'unused' }, PNG, 'unused.png')).id);
    const first = await simpleCarousel(root, a, 1, ids.photo);
    await root.post(accountPath(a, 'layers'), { ly_slideid: first.slides[0].id, ly_variantid: first.variant.id, ly_type: 'video', ly_assetid: ids.clip });
    const second = await simpleCarousel(root, a, 1, ids.banner);
    carousels = [first.carousel, second.carousel];
    group = await makeGroup(
      root,
      a,
      carousels.map((c) => c.id),
    );
    code = String((await makeCode(root, a, group.id)).cc_code);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-media-sync-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A fetch that records what it asked and got; `cutAfter` cuts the body of stored files after that many bytes. */
  function watching(seen: Seen[], cutAfter?: number): typeof fetch {
    return async (input, init) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const res = await fetch(input, init);
      const url = String(input);
      seen.push({ url, range: headers.Range, inm: headers['If-None-Match'], status: res.status });
      if (cutAfter === undefined || !url.includes('/storage/') || !res.body) return res;
      const reader = res.body.getReader();
      let sent = 0;
      const cut = new ReadableStream<Uint8Array>({
        async pull(controller) {
          // the bytes up to the cut arrive; the read after them fails, as when the connection drops
          if (sent >= cutAfter) {
            await reader.cancel();
            await new Promise((r) => setTimeout(r, 100)); // the bytes before the cut reach the client first
            return controller.error(new Error('connection cut'));
          }
          const { done, value } = await reader.read();
          if (done) return controller.close();
          const piece = value.subarray(0, cutAfter - sent);
          sent += piece.length;
          controller.enqueue(piece);
        },
      });
      return new Response(cut, { status: res.status, headers: res.headers });
    };
  }
  const options = (seen: Seen[] = [], cutAfter?: number): SyncOptions => ({ url: t.baseUrl, code, dir, fetch: watching(seen, cutAfter) });
  const file = (id: string) => fs.readFileSync(path.join(dir, id));
  const storageGets = (seen: Seen[]) => seen.filter((s) => s.url.includes('/storage/'));

  it('the first sync downloads every asset of the group, checked, and writes the index with the ETag', async () => {
    const seen: Seen[] = [];
    const report = await syncMedia(options(seen));
    expect(report.status).toBe('updated');
    expect(report.downloaded.sort()).toEqual([ids.photo, ids.clip, ids.banner].sort());
    expect(report.failed).toEqual([]);
    expect(file(ids.photo).equals(bytes.photo)).toBe(true);
    expect(file(ids.clip).equals(bytes.clip)).toBe(true);
    expect(file(ids.banner).equals(bytes.banner)).toBe(true);
    expect(fs.existsSync(path.join(dir, ids.unused))).toBe(false);
    expect(fs.readdirSync(path.join(dir, PARTIAL_DIR))).toEqual([]);
    const index = (await readIndex(dir))!;
    expect(index.account_id).toBe(a);
    expect(index.etag).toMatch(/^"/);
    expect(index.assets.map((x) => x.as_name).sort()).toEqual(['banner', 'clip', 'photo']);
    expect(index.assets.find((x) => x.as_id === ids.clip)).toMatchObject({ as_type: 'video/mp4', as_size: 300_000, as_version: 1 });
    expect(seen[0].url).toBe(`${t.baseUrl}/api/1/play/${code}`);
    expect(seen[1]).toMatchObject({ url: `${t.baseUrl}/api/1/accounts/${a}/sync/manifest`, status: 200 });
    expect(storageGets(seen).every((s) => s.status === 200 && !s.range)).toBe(true);
  });

  it('the second sync with nothing changed asks with If-None-Match, gets 304 and downloads nothing', async () => {
    const seen: Seen[] = [];
    const etag = (await readIndex(dir))!.etag;
    const report = await syncMedia(options(seen));
    expect(report).toMatchObject({ status: 'not_modified', downloaded: [], removed: [], failed: [], kept: 3 });
    expect(seen).toEqual([{ url: `${t.baseUrl}/api/1/accounts/${a}/sync/manifest`, inm: etag, status: 304 }]);
  });

  it('a file deleted by hand is fetched again although the manifest did not change', async () => {
    fs.rmSync(path.join(dir, ids.banner));
    const seen: Seen[] = [];
    const report = await syncMedia(options(seen));
    expect(report.downloaded).toEqual([ids.banner]);
    expect(seen.map((s) => s.status)).toEqual([304, 200, 200]);
    expect(file(ids.banner).equals(bytes.banner)).toBe(true);
  });

  it('a replaced asset (version 2) is the only one downloaded', async () => {
    bytes.photo = bigPng(50_000);
    const res = await root.put(`${accountPath(a, 'assets')}/${ids.photo}/file`, await uploadAssetFile(t, root, a, bytes.photo, 'photo-2.png'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const seen: Seen[] = [];
    const report = await syncMedia(options(seen));
    expect(report.downloaded).toEqual([ids.photo]);
    expect(report.kept).toBe(2);
    expect(storageGets(seen)).toHaveLength(1);
    expect(storageGets(seen)[0].url).toMatch(/\?v=2$/);
    expect(file(ids.photo).equals(bytes.photo)).toBe(true);
    expect((await readIndex(dir))!.assets.find((x) => x.as_id === ids.photo)!.as_version).toBe(2);
  });

  it('a download that does not match its SHA-256 is refused: not renamed, the old file stays, the ETag is not kept', async () => {
    const real = (await t.db('assets').where('as_id', ids.banner).first('as_sha256')).as_sha256;
    await t
      .db('assets')
      .where('as_id', ids.banner)
      .update({ as_sha256: 'f'.repeat(64) });
    try {
      const report = await syncMedia(options());
      expect(report.failed.map((f) => f.as_id)).toEqual([ids.banner]);
      expect(report.failed[0].reason).toMatch(/does not match its SHA-256.*refused/);
      expect(file(ids.banner).equals(bytes.banner)).toBe(true); // the old, good copy
      expect(fs.readdirSync(path.join(dir, PARTIAL_DIR))).toEqual([]);
      const index = (await readIndex(dir))!;
      expect(index.etag).toBeNull();
      expect(index.assets.find((x) => x.as_id === ids.banner)!.as_sha256).toBe(real);
    } finally {
      await t.db('assets').where('as_id', ids.banner).update({ as_sha256: real });
    }
    const again = await syncMedia(options());
    expect(again.downloaded).toEqual([]);
    expect(again.failed).toEqual([]);
    expect((await readIndex(dir))!.etag).toMatch(/^"/);
  });

  it('a download cut half-way keeps its partial file and resumes with a Range request', async () => {
    bytes.clip = Buffer.from(mp4(400_000).map((b, i) => (i < 24 ? b : (b + 7) % 256)));
    const res = await root.put(`${accountPath(a, 'assets')}/${ids.clip}/file`, await uploadAssetFile(t, root, a, bytes.clip, 'clip-2.mp4'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cut = await syncMedia(options([], 150_000));
    expect(cut.failed.map((f) => f.as_id)).toEqual([ids.clip]);
    const parts = fs.readdirSync(path.join(dir, PARTIAL_DIR));
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatch(new RegExp(`^${ids.clip}\\.[0-9a-f]{64}\\.part$`));
    const partial = fs.statSync(path.join(dir, PARTIAL_DIR, parts[0])).size;
    // what arrived before the cut (chunks still queued in the client's stream when it fails may be lost)
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThanOrEqual(150_000);
    expect(file(ids.clip).length).toBe(300_000); // the old version still in place

    const seen: Seen[] = [];
    const resumed = await syncMedia(options(seen));
    expect(resumed.resumed).toEqual([ids.clip]);
    expect(storageGets(seen)).toEqual([expect.objectContaining({ range: `bytes=${partial}-`, status: 206 })]);
    expect(file(ids.clip).equals(bytes.clip)).toBe(true);
    expect(fs.readdirSync(path.join(dir, PARTIAL_DIR))).toEqual([]);
  });

  it('files no longer listed are removed (a carousel left the group)', async () => {
    const res = await root.put(`${accountPath(a, 'carousel-groups')}/${group.id}/items`, { ids: [carousels[0].id] });
    expect(res.status).toBe(200);
    const report = await syncMedia(options());
    expect(report.removed).toEqual([ids.banner]);
    expect(fs.existsSync(path.join(dir, ids.banner))).toBe(false);
    expect((await readIndex(dir))!.assets.map((x) => x.as_id).sort()).toEqual([ids.photo, ids.clip].sort());
  });

  it('an unknown code stops with a clear error', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-media-sync-'));
    try {
      await expect(syncMedia({ url: t.baseUrl, code: 'ACDEFGHJKM', dir: other })).rejects.toThrow(SyncError);
      await expect(syncMedia({ url: t.baseUrl, code: 'ACDEFGHJKM', dir: other })).rejects.toThrow('The server does not know the player code ACDEFGHJKM');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('the local media server: health, an asset by version with its type, ranges, CORS and the preflight', async () => {
    const media = await startMediaServer({ dir, port: 0, host: '127.0.0.1' });
    try {
      const health = await fetch(`${media.url}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('access-control-allow-origin')).toBe('*');
      expect(await health.json()).toMatchObject({ status: 'ok', assets: 2, last_error: null });

      const photo = await fetch(`${media.url}/${ids.photo}?v=2`);
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/png');
      expect(photo.headers.get('access-control-allow-origin')).toBe('*');
      expect(photo.headers.get('cache-control')).toContain('immutable');
      expect(Buffer.from(await photo.arrayBuffer()).equals(bytes.photo)).toBe(true);
      // an old version (the player's cache is by URL) and an unknown asset: 404
      expect((await fetch(`${media.url}/${ids.photo}?v=1`)).status).toBe(404);
      expect((await fetch(`${media.url}/${ids.unused}?v=1`)).status).toBe(404);

      const part = await fetch(`${media.url}/${ids.clip}?v=2`, { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.clip.length}`);
      expect(part.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.clip.subarray(100, 200))).toBe(true);
      const tail = await fetch(`${media.url}/${ids.clip}`, { headers: { Range: 'bytes=-10' } });
      expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.clip.subarray(-10))).toBe(true);
      expect((await fetch(`${media.url}/${ids.clip}`, { headers: { Range: `bytes=${bytes.clip.length}-` } })).status).toBe(416);
      const head = await fetch(`${media.url}/${ids.clip}?v=2`, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe(String(bytes.clip.length));
      expect(head.headers.get('accept-ranges')).toBe('bytes');
      const etag = head.headers.get('etag')!;
      expect((await fetch(`${media.url}/${ids.clip}?v=2`, { headers: { 'If-None-Match': etag } })).status).toBe(304);

      const preflight = await fetch(`${media.url}/${ids.clip}?v=2`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://leads.example.com',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'range',
          'Access-Control-Request-Private-Network': 'true',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Range/);
      expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
      expect((await fetch(`${media.url}/${ids.clip}`, { method: 'DELETE' })).status).toBe(405);
    } finally {
      await media.close();
    }
  });

  it('the CLI: one sync and exit 0; bad arguments exit 2; --serve serves the folder and syncs', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/media-sync.ts', ...args], { cwd: ROOT });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const once = await run(['--url', t.baseUrl, '--code', code.toLowerCase(), '--dir', dir]);
    expect(once.code, once.out).toBe(0);
    expect(once.out).toContain('nothing changed (2 file(s))');
    const bad = await run(['--url', 'ftp://x', '--code', code, '--dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--url must be an http(s) address');
    expect((await run(['--code', code])).code).toBe(2);

    const served = spawn(process.execPath, tsxArgs('scripts/media-sync.ts', '--url', t.baseUrl, '--code', code, '--dir', dir, '--serve', '0', '--host', '127.0.0.1'), {
      cwd: ROOT,
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        served.stdout.on('data', (d) => {
          out += d;
          const m = /Local media server at (http:\/\/[^\s]+) /.exec(out);
          if (m && /sync: /.test(out)) resolve(m[1]);
        });
        served.on('exit', () => reject(new Error(out)));
      });
      const health = (await (await fetch(`${url}/health`)).json()) as Row;
      expect(health).toMatchObject({ status: 'ok', assets: 2, last_error: null });
      expect((await fetch(`${url}/${ids.photo}?v=2`)).status).toBe(200);
    } finally {
      served.kill('SIGTERM');
    }
    expect(fs.existsSync(path.join(dir, INDEX_FILE))).toBe(true);
  }, 60_000);
});
