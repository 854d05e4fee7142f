import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { GetBucketCorsCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../api/config.js';
import { ensureBucket } from '../../api/storage/bucket.js';

// The deployment's one-shot setup (scripts/setup.ts) against an S3 server that has no bucket yet.
describe('ensureBucket', () => {
  let dir: string;
  let server: S3rver;
  let endpoint: string;
  let config: Config;
  let client: S3Client;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-bucket-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
    endpoint = `http://127.0.0.1:${(await server.run()).port}`;
    config = loadConfig(
      {
        PUBLIC_URL: 'https://leads.example.com',
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_BUCKET: 'fresh-bucket',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_FORCE_PATH_STYLE: 'true',
      },
      { sessionSecret: 'unit' },
    );
    client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  });
  afterAll(async () => {
    client?.destroy();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const preflight = (origin: string, method: string) =>
    fetch(`${endpoint}/fresh-bucket/files/2026/11/x`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
    });

  it('creates the bucket, lets the admin origin PUT to it and no other origin, and can run again', async () => {
    expect((await client.send(new ListBucketsCommand({}))).Buckets ?? []).toEqual([]);

    expect(await ensureBucket(config)).toEqual({ created: true });
    expect((await client.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toEqual(['fresh-bucket']);
    const cors = await client.send(new GetBucketCorsCommand({ Bucket: 'fresh-bucket' }));
    expect(cors.CORSRules?.[0]?.AllowedOrigins).toEqual(['https://leads.example.com']);

    const allowed = await preflight('https://leads.example.com', 'PUT');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
    expect((await preflight('https://evil.example.net', 'PUT')).status).toBe(403);
    expect((await preflight('https://leads.example.com', 'DELETE')).status).toBe(403);

    expect(await ensureBucket(config)).toEqual({ created: false });
    expect((await client.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toEqual(['fresh-bucket']);
  });

  it('fails on refused credentials instead of creating or reporting anything', async () => {
    const wrong = { ...config, storage: { ...config.storage, s3: { ...config.storage.s3, bucket: 'other', accessKeyId: 'UNKNOWN' } } };
    await expect(ensureBucket(wrong)).rejects.toThrow('the S3 store refused S3_ACCESS_KEY_ID for bucket other (HTTP 403)');
    expect((await client.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).not.toContain('other');
  });
});
