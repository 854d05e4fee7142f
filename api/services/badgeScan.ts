import crypto from 'node:crypto';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { ApiError } from '../errors.js';
import { guardedLookup, isLocalHostname, isPrivateAddress, PrivateAddressError } from './privateAddress.js';

/** The integration fields a scan needs. */
export interface BadgeScanIntegration {
  in_api_url: string;
  in_key?: string | null;
  in_secret?: string | null;
}

export interface BadgeScanOptions {
  /** INTEGRATIONS_ALLOW_PRIVATE: the provider may live on a private or loopback address. */
  allowPrivate: boolean;
  /** No complete answer within this long → 504 badge_scan_timeout (the contract's 8 s). */
  timeoutMs: number;
  /** Extra certificate authorities (PEM), trusted beside the system's. */
  ca?: string;
}

/** The person behind a badge, by data name (email, first_name, last_name, company, …). */
export type BadgeAnswers = Record<string, string | number | boolean | null | (string | number | boolean | null)[]>;

/** Why a scan failed, for the caller's screen (the 502's `reason`). */
export type BadgeScanFailure = 'private_address' | 'unreachable' | 'provider_error' | 'invalid_answer';

/** The largest answer read from a provider. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export const BADGE_SCAN_TIMEOUT_MESSAGE = 'Sadly we could not retrieve any data at this time';

const timeout = () => new ApiError(504, 'badge_scan_timeout', BADGE_SCAN_TIMEOUT_MESSAGE);
const failed = (reason: BadgeScanFailure, message: string, providerStatus?: number) =>
  new ApiError(502, 'badge_scan_failed', message, undefined, { reason, ...(providerStatus !== undefined ? { provider_status: providerStatus } : {}) });

/**
 * The TLS context that trusts the system's roots plus the configured CA, built once per CA: building it parses every
 * root certificate (about 38 ms of CPU), which a scan per badge must not pay each time.
 */
const contexts = new Map<string, tls.SecureContext>();
function secureContextFor(ca: string): tls.SecureContext {
  let context = contexts.get(ca);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    contexts.set(ca, context);
  }
  return context;
}

/** The body and headers of a scan request (the contract: X-Api-Key, and X-Signature = hex HMAC-SHA256 of the body). */
export function signedScanRequest(integration: BadgeScanIntegration, event: string | null, code: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ event, code });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'User-Agent': 'Leadstage badge scan',
  };
  if (integration.in_key) headers['X-Api-Key'] = integration.in_key;
  if (integration.in_secret) headers['X-Signature'] = crypto.createHmac('sha256', integration.in_secret).update(body).digest('hex');
  return { body, headers };
}

/** The provider's JSON object as answers: plain values (and lists of them) by name; nested objects are dropped. */
function answersOf(json: unknown): BadgeAnswers | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  const answers: BadgeAnswers = {};
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (key.length > 100) continue;
    if (plain(value)) answers[key] = value as string | number | boolean | null;
    else if (Array.isArray(value) && value.every(plain)) answers[key] = value as (string | number | boolean | null)[];
  }
  return answers;
}

/**
 * Posts {event, code} to the integration's in_api_url and answers the person as {answers}. The private-address rule
 * is checked again here, on the address actually connected to (a literal IP before connecting, a name inside the
 * connection's DNS lookup), so a name that has come to point inside since it was saved is refused. Redirects are not
 * followed. 504 badge_scan_timeout when no complete answer came within timeoutMs; 502 badge_scan_failed (with a
 * reason) when the provider cannot be reached, answers an error status, or does not answer a JSON object.
 */
export function badgeScan(integration: BadgeScanIntegration, scan: { event: string | null; code: string }, options: BadgeScanOptions): Promise<{ answers: BadgeAnswers }> {
  let url: URL;
  try {
    url = new URL(integration.in_api_url);
  } catch {
    return Promise.reject(failed('unreachable', 'The provider address is not a valid URL'));
  }
  if (url.protocol !== 'https:') return Promise.reject(failed('unreachable', 'The provider address must use https'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && (net.isIP(host) ? isPrivateAddress(host) : isLocalHostname(host)))
    return Promise.reject(failed('private_address', 'The provider address is a private network address'));

  const { body, headers } = signedScanRequest(integration, scan.event, scan.code);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: ApiError | undefined, value?: { answers: BadgeAnswers }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
    };
    const req = https.request(url, {
      method: 'POST',
      headers,
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      // tls.connect takes it from the request's options (Node passes them through; the https types leave it out)
      ...({ secureContext: options.ca ? secureContextFor(options.ca) : undefined } as https.RequestOptions),
    });
    const timer = setTimeout(() => {
      finish(timeout());
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => {
      if (err instanceof PrivateAddressError) finish(failed('private_address', 'The provider address is a private network address'));
      else finish(failed('unreachable', 'The provider could not be reached'));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        return finish(failed('provider_error', `The provider answered ${status}`, status));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          finish(failed('invalid_answer', 'The provider answer is too large', status));
          req.destroy();
        } else chunks.push(chunk);
      });
      res.on('error', () => finish(failed('unreachable', 'The provider answer was cut off', status)));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return finish(failed('invalid_answer', 'The provider did not answer JSON', status));
        }
        const answers = answersOf(json);
        if (!answers) return finish(failed('invalid_answer', 'The provider did not answer an object', status));
        finish(undefined, { answers });
      });
    });
    req.end(body);
  });
}
