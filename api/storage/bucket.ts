import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, type BucketLocationConstraint } from '@aws-sdk/client-s3';
import type { Config } from '../config.js';
import { S3Driver } from './s3.js';

/** What the admin's browser does at the bucket: PUT to presigned upload URLs, and GET/HEAD redirected downloads. */
export function corsRules(publicUrl: string) {
  return [
    {
      AllowedOrigins: [new URL(publicUrl).origin],
      AllowedMethods: ['PUT', 'GET', 'HEAD'],
      AllowedHeaders: ['*'],
      ExposeHeaders: ['ETag'],
      MaxAgeSeconds: 3600,
    },
  ];
}

/**
 * Creates the bucket when it is missing and (re)writes its CORS rule for the admin's origin. Safe to run again.
 * Returns whether the bucket was created.
 */
export async function ensureBucket(config: Config): Promise<{ created: boolean }> {
  const s3 = config.storage.s3;
  const driver = new S3Driver(s3);
  try {
    let created = false;
    try {
      await driver.client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // A HEAD answer has no body, so the SDK's own error for a refusal says only "UnknownError".
      if (status === 403) throw new Error(`the S3 store refused S3_ACCESS_KEY_ID for bucket ${s3.bucket} (HTTP 403)`, { cause: e });
      if (status !== 404) throw e;
      // AWS wants the region named for any region but its default one.
      const location = s3.region === 'us-east-1' ? undefined : { LocationConstraint: s3.region as BucketLocationConstraint };
      await driver.client.send(new CreateBucketCommand({ Bucket: s3.bucket, CreateBucketConfiguration: location }));
      created = true;
    }
    await driver.client.send(new PutBucketCorsCommand({ Bucket: s3.bucket, CORSConfiguration: { CORSRules: corsRules(config.publicUrl) } }));
    return { created };
  } finally {
    await driver.close();
  }
}
