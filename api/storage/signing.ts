import crypto from 'node:crypto';

/**
 * HMAC-signed upload URLs of the local driver. The signature binds the object key (so the id and the path), the
 * expiry and the size limit; the key is derived from the session secret so a signature is useless as anything else.
 */
export interface UploadGrant {
  key: string;
  /** Unix seconds. */
  expires: number;
  maxBytes: number;
}

function signingKey(secret: string): Buffer {
  return crypto.createHmac('sha256', secret).update('leadstage:storage-upload:v1').digest();
}

function mac(secret: string, g: UploadGrant): string {
  return crypto.createHmac('sha256', signingKey(secret)).update(`PUT\n${g.key}\n${g.expires}\n${g.maxBytes}`).digest('base64url');
}

/** The query string of a signed URL: expires, max, signature. */
export function signUpload(secret: string, g: UploadGrant): string {
  return new URLSearchParams({ expires: String(g.expires), max: String(g.maxBytes), signature: mac(secret, g) }).toString();
}

export type Verdict = { ok: true; grant: UploadGrant } | { ok: false; reason: 'invalid' | 'expired' };

/** Checks a signed request: the signature first (a tampered expiry is "invalid", not "expired"), then the clock. */
export function verifyUpload(secret: string, key: string, query: Record<string, unknown>, now = Date.now()): Verdict {
  const { expires, max, signature } = query;
  if (typeof expires !== 'string' || typeof max !== 'string' || typeof signature !== 'string') return { ok: false, reason: 'invalid' };
  if (!/^\d{1,12}$/.test(expires) || !/^\d{1,15}$/.test(max)) return { ok: false, reason: 'invalid' };
  const grant: UploadGrant = { key, expires: Number(expires), maxBytes: Number(max) };
  const expected = Buffer.from(mac(secret, grant));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  if (grant.expires * 1000 < now) return { ok: false, reason: 'expired' };
  return { ok: true, grant };
}
