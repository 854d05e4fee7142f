// npm run fake-badge-provider -- [--port 4555] [--host 127.0.0.1] [--secret S] [--key K] [--delay-ms N] [--slow-ms N] [--cert-dir DIR]
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CliError, runCli } from './lib/cli.js';
import { selfSignedCert, type SelfSignedCert } from './lib/selfSignedCert.js';

/**
 * A badge-scan provider for tests and the demo, speaking the contract's protocol (account-console.md, Badge scan):
 * POST {event, code} as JSON with X-Api-Key and X-Signature (hex HMAC-SHA256 of the body with the shared secret).
 * It checks the signature (401 when wrong or missing) and the key when it was given one, then answers by code from
 * BADGES: a known code → 200 with the person; a code starting with "slow" → the same after slowMs; one starting
 * with "error" → 500; anything else → 404. delayMs slows every answer. HTTPS with a self-signed certificate for
 * localhost, 127.0.0.1 and ::1, which a client trusts by its PEM (INTEGRATIONS_CA_FILE for the app).
 */

export const FAKE_BADGE_SECRET = 'fake-badge-secret';

/** The people behind the codes. */
export const BADGES: Record<string, Record<string, string>> = {
  '1001': { email: 'ada.lovelace@example.com', first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical Engines Ltd', job_title: 'Mathematician', country: 'GB' },
  '1002': { email: 'grace.hopper@example.com', first_name: 'Grace', last_name: 'Hopper', company: 'Compiler Works', job_title: 'Rear admiral', country: 'US' },
  '1003': { email: 'edsger.dijkstra@example.nl', first_name: 'Edsger', last_name: 'Dijkstra', company: 'Mathematisch Centrum', job_title: 'Programmer', country: 'NL' },
  '1004': { email: 'hedy.lamarr@example.com', first_name: 'Hedy', last_name: 'Lamarr', company: 'Frequency Hopping Inc', job_title: 'Inventor', country: 'AT' },
};

export interface FakeBadgeProviderOptions {
  port?: number;
  host?: string;
  /** The shared secret the X-Signature is checked with. */
  secret?: string;
  /** When set, X-Api-Key must equal it. */
  apiKey?: string;
  /** Wait this long before every answer. */
  delayMs?: number;
  /** How long a "slow…" code waits (default 10 s, beyond the app's 8 s). */
  slowMs?: number;
  /** Key and certificate to serve (default: a new self-signed pair). */
  tls?: SelfSignedCert;
  /** Called for every request (the CLI prints it). */
  onRequest?: (line: string) => void;
}

export interface FakeBadgeProvider {
  /** The scan address, https://127.0.0.1:<port>/scan (any path answers). */
  url: string;
  port: number;
  /** The certificate to trust (PEM). */
  cert: string;
  /** Requests seen: headers and raw body. */
  requests: { headers: Record<string, string | string[] | undefined>; body: string }[];
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

export async function startFakeBadgeProvider(options: FakeBadgeProviderOptions = {}): Promise<FakeBadgeProvider> {
  const secret = options.secret ?? FAKE_BADGE_SECRET;
  const tls = options.tls ?? selfSignedCert();
  const requests: FakeBadgeProvider['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const send = (status: number, body: unknown) => {
      options.onRequest?.(`${req.method} ${req.url} → ${status}`);
      if (res.destroyed) return;
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST') return send(req.method === 'GET' ? 200 : 405, { service: 'fake badge provider', codes: Object.keys(BADGES) });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      requests.push({ headers: req.headers, body: raw.toString('utf8') });
      const expected = crypto.createHmac('sha256', secret).update(raw).digest();
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return send(401, { error: 'invalid_signature' });
      if (options.apiKey !== undefined && req.headers['x-api-key'] !== options.apiKey) return send(401, { error: 'invalid_api_key' });
      let code: unknown;
      try {
        code = JSON.parse(raw.toString('utf8'))?.code;
      } catch {
        return send(400, { error: 'invalid_json' });
      }
      if (typeof code !== 'string' || !code) return send(400, { error: 'code_required' });
      await wait(options.delayMs ?? 0);
      if (/^slow/i.test(code)) {
        await wait(options.slowMs ?? 10_000);
        return send(200, { ...BADGES['1001'], badge_code: code });
      }
      if (/^error/i.test(code)) return send(500, { error: 'provider_failure' });
      const person = BADGES[code];
      if (!person) return send(404, { error: 'unknown_code' });
      send(200, person);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}/scan`,
    port,
    cert: tls.cert,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The key pair kept in `dir` (made on first start), so the app trusts the same certificate across restarts. */
function persistentCert(dir: string): { tls: SelfSignedCert; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  if (fs.existsSync(keyFile) && fs.existsSync(certFile)) return { tls: { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') }, certFile };
  const tls = selfSignedCert();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(keyFile, tls.key, { mode: 0o600 });
  fs.writeFileSync(certFile, tls.cert);
  return { tls, certFile };
}

const USAGE = `usage: npm run fake-badge-provider -- [--port 4555] [--host 127.0.0.1] [--secret S] [--key K] [--delay-ms N] [--slow-ms N] [--cert-dir DIR]`;

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;

if (isMain) {
  await runCli(async () => {
    const { values } = (() => {
      try {
        return parseArgs({
          options: {
            port: { type: 'string', default: '4555' },
            host: { type: 'string', default: '127.0.0.1' },
            secret: { type: 'string', default: FAKE_BADGE_SECRET },
            key: { type: 'string' },
            'delay-ms': { type: 'string', default: '0' },
            'slow-ms': { type: 'string', default: '10000' },
            'cert-dir': { type: 'string', default: path.join(process.env.DATA_DIR || 'data', 'fake-badge-provider') },
            help: { type: 'boolean', short: 'h' },
          },
        });
      } catch (err) {
        throw new CliError(`${(err as Error).message}\n${USAGE}`);
      }
    })();
    if (values.help) return console.log(USAGE);
    const number = (name: string, v: string, max: number) => {
      const n = Number(v);
      if (!/^\d+$/.test(v) || n > max) throw new CliError(`--${name} must be a whole number from 0 to ${max}\n${USAGE}`);
      return n;
    };
    const { tls, certFile } = persistentCert(values['cert-dir']);
    const provider = await startFakeBadgeProvider({
      port: number('port', values.port, 65535),
      host: values.host,
      secret: values.secret,
      apiKey: values.key,
      delayMs: number('delay-ms', values['delay-ms'], 600_000),
      slowMs: number('slow-ms', values['slow-ms'], 600_000),
      tls,
      onRequest: (line) => console.log(`${new Date().toISOString()} ${line}`),
    });
    console.log(`Fake badge provider at ${provider.url}
  secret: ${values.secret}${values.key ? `\n  API key: ${values.key}` : ''}
  codes: ${Object.keys(BADGES).join(', ')}; slow… waits ${values['slow-ms']} ms; error… answers 500; others 404
  certificate: ${certFile}
Run the app with INTEGRATIONS_ALLOW_PRIVATE=1 INTEGRATIONS_CA_FILE=${certFile} to call it. Ctrl-C stops.`);
    const stop = () => void provider.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
