import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config.js';
import type { ByteRange, ObjectInfo, StorageDriver } from './driver.js';

type S3Settings = Config['storage']['s3'];

function clientConfig(s3: S3Settings, endpoint: string | undefined): S3ClientConfig {
  return {
    endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: the default (CRC32 on every PUT) puts checksum parameters into presigned
    // URLs that a browser's plain PUT cannot satisfy, and several S3-compatible stores reject the trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NotFound' || err?.name === 'NoSuchKey' || err?.$metadata?.httpStatusCode === 404;
}

/**
 * Any S3-compatible store (AWS S3, MinIO). The browser uploads straight to the bucket with a presigned PUT; the API
 * reads objects to check them and streams them out (so the stable /storage URLs, ranges and caching work the same for
 * both drivers and the bucket can stay private). A presigned PUT cannot carry a size limit, so size and type are
 * checked when the file is registered, and a refused object is deleted then.
 */
export class S3Driver implements StorageDriver {
  readonly name = 's3' as const;
  readonly client: S3Client;
  /** Signs URLs for the address browsers use (S3_PUBLIC_ENDPOINT), which may differ from the one the API uses. */
  private presigner: S3Client;
  readonly bucket: string;

  constructor(s3: S3Settings) {
    this.bucket = s3.bucket;
    this.client = new S3Client(clientConfig(s3, s3.endpoint));
    this.presigner = s3.publicEndpoint && s3.publicEndpoint !== s3.endpoint ? new S3Client(clientConfig(s3, s3.publicEndpoint)) : this.client;
  }

  async signUpload(key: string, opts: { maxBytes: number; ttlSeconds: number }): Promise<string> {
    return getSignedUrl(this.presigner, new PutObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: opts.ttlSeconds });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(h.ContentLength ?? 0), modified: h.LastModified ?? new Date(0), etag: h.ETag ?? `"${key}"` };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async readHead(key: string, bytes: number): Promise<Buffer> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
      return Buffer.from(await r.Body!.transformToByteArray());
    } catch (e) {
      // An empty object has no byte 0: S3 answers 416 InvalidRange.
      if ((e as { name?: string }).name === 'InvalidRange' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) {
        return Buffer.alloc(0);
      }
      throw e;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return r.Body as Readable;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** The bucket exists and these credentials may use it. */
  async check(signal?: AbortSignal): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
