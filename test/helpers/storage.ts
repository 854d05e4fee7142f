import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import S3rver from 's3rver';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Config } from '../../api/config.js';
import { storageOf } from '../../api/storage/index.js';
import { LocalDriver } from '../../api/storage/local.js';
import { S3Driver } from '../../api/storage/s3.js';
import { startApp, type TestApp } from './app.js';
import type { DbKind } from './db.js';

export type DriverKind = 'local' | 's3';
export const DRIVERS: DriverKind[] = ['local', 's3'];
export const BUCKET = 'leadstage';

/** An S3-protocol server (s3rver) in this process, on a free port, with its own temporary directory. */
export interface S3Server {
  endpoint: string;
  close(): Promise<void>;
}

export async function startS3(): Promise<S3Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const info = await server.run();
  // S3 stores an object only once its PUT is complete ("Amazon S3 never adds partial objects"); s3rver writes as the
  // bytes arrive and keeps a cut-off upload. This front gives s3rver S3's behaviour: a request is forwarded only once
  // its body has fully arrived, and dropped when the client goes away.
  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers };
      delete headers['transfer-encoding'];
      if (req.method !== 'GET' && req.method !== 'HEAD') headers['content-length'] = String(body.length);
      const up = http.request({ host: '127.0.0.1', port: info.port, method: req.method, path: req.url, headers }, (r) => {
        res.writeHead(r.statusCode!, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(front.address() as { port: number }).port}`,
    async close() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Config overrides for a driver (s3rver's fixed credentials are S3RVER/S3RVER). */
export function storageConfig(driver: DriverKind, s3: S3Server | undefined, extra: Partial<Config['storage']> = {}): Partial<Config> {
  return {
    storage: {
      driver,
      maxFileBytes: 256 * 1024,
      signedUrlTtlSeconds: 900,
      s3: {
        endpoint: s3?.endpoint,
        bucket: BUCKET,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
      ...extra,
    },
  };
}

/** Every stored object key, and for the local driver every leftover temporary file (as ".tmp/<name>"). */
export async function storedKeys(t: TestApp): Promise<string[]> {
  const driver = storageOf(t.context);
  if (driver instanceof LocalDriver) {
    const out: string[] = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else out.push(path.relative(driver.root, full).split(path.sep).join('/'));
      }
    };
    walk(driver.root);
    return out.sort();
  }
  const s3 = driver as S3Driver;
  const r = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  return (r.Contents ?? []).map((o) => o.Key!).sort();
}

// Sample contents: just enough of each format for its magic number.
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
export const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
  Buffer.alloc(64, 7),
  Buffer.from([0xff, 0xd9]),
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
export const CSV = Buffer.from('name,email\nAva,ava@example.com\n');
export const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), Buffer.alloc(100, 1)]);

/** An MP4 (ftyp isom) of `size` bytes with a recognisable byte pattern after the header. */
export function mp4(size: number): Buffer {
  const buf = Buffer.alloc(size);
  Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32]).copy(buf);
  for (let i = 24; i < size; i++) buf[i] = i % 251;
  return buf;
}

/** A PNG followed by random filler, `size` bytes in all. */
export function bigPng(size: number): Buffer {
  const buf = crypto.randomBytes(size);
  PNG.copy(buf);
  return buf;
}

export async function putBytes(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
  return { status: res.status, text: await res.text() };
}

/** PUT with a raw request path (no URL normalisation: "..", encoded slashes reach the server as written). */
export function rawPut(baseUrl: string, rawPath: string, body: Buffer): Promise<{ status: number; text: string }> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: 'PUT', path: rawPath, headers: { 'Content-Length': body.length } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Announces `total` bytes, sends `sent` of them, then drops the connection: an upload cut off halfway. */
export function cutOffPut(url: string, total: number, sent: Buffer): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = http.request({ host: u.hostname, port: u.port, method: 'PUT', path: u.pathname + u.search, headers: { 'Content-Length': total } });
    req.on('error', () => resolve());
    req.write(sent, () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 150);
    });
  });
}

export async function until(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** An app on the given database with the given storage driver (and its own s3rver for s3); close() stops all. */
export async function startStorageApp(kind: DbKind, driver: DriverKind): Promise<{ t: TestApp; s3?: S3Server; close(): Promise<void> }> {
  const s3 = driver === 's3' ? await startS3() : undefined;
  const t = await startApp(kind, storageConfig(driver, s3));
  return {
    t,
    s3,
    async close() {
      await storageOf(t.context).close();
      await t.close();
      await s3?.close();
    },
  };
}
