import crypto from 'node:crypto';
import net from 'node:net';

/**
 * A self-signed TLS certificate made with node:crypto alone (no openssl binary, no dependency): an EC P-256 key and
 * an X.509 v3 certificate for the given names (DNS names and IP addresses), signed by itself. For local test servers
 * only (the fake badge provider); a client trusts it by passing the certificate as `ca`.
 */

function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else if (n < 0x100) length = Buffer.from([0x81, n]);
  else if (n < 0x10000) length = Buffer.from([0x82, n >> 8, n & 255]);
  else length = Buffer.from([0x83, n >> 16, (n >> 8) & 255, n & 255]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`));
}

const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'));
const ECDSA_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

function ipBytes(ip: string): Buffer {
  if (net.isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  const [head, tail] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]));
}

export interface SelfSignedCert {
  /** PEM private key (PKCS#8). */
  key: string;
  /** PEM certificate. */
  cert: string;
}

export function selfSignedCert(names: string[] = ['localhost', '127.0.0.1', '::1'], commonName = names[0] ?? 'localhost', days = 3650): SelfSignedCert {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const serial = crypto.randomBytes(16);
  // A positive INTEGER in minimal DER: top bit clear (else it reads as negative) and the next bit set (a leading
  // zero byte followed by a byte below 0x80 is non-minimal, which OpenSSL refuses as "illegal padding").
  serial[0] = (serial[0] & 0x7f) | 0x40;
  const now = Date.now();
  const altNames = names.map((n) => (net.isIP(n) ? der(0x87, ipBytes(n)) : der(0x82, Buffer.from(n, 'ascii'))));
  const extensions = der(
    0xa3,
    seq(
      // basicConstraints: CA, so the certificate can anchor its own trust
      seq(oid('2.5.29.19'), der(0x01, Buffer.from([0xff])), der(0x04, seq(der(0x01, Buffer.from([0xff]))))),
      // subjectAltName
      seq(oid('2.5.29.17'), der(0x04, seq(...altNames))),
    ),
  );
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, serial),
    ECDSA_SHA256,
    name,
    seq(time(new Date(now - 86400_000)), time(new Date(now + days * 86400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = crypto.sign('sha256', tbs, privateKey);
  const certificate = seq(tbs, ECDSA_SHA256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, cert: pem };
}
