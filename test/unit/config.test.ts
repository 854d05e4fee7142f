import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../api/config.js';
import { loadDotEnv } from '../../api/startup.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-config-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// SESSION_SECRET set, so no secret file is written; DATA_DIR a temporary directory in case one is.
const base = { DATA_DIR: dataDir, SESSION_SECRET: 'a-session-secret-of-32-characters' };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env });

/** The problems loadConfig reports for `env`, as "VARIABLE: problem" lines. */
function problems(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => `${p.variable}: ${p.problem}`);
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('configuration', () => {
  it('defaults when nothing is set', () => {
    const c = loadConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      dataDir,
      databaseUrl: undefined,
      databasePoolMax: 10,
      publicUrl: 'http://localhost:3000',
      secureCookies: false,
      passwordMinLength: 12,
      mailFrom: 'Leadstage <no-reply@leadstage.local>',
      supportEmail: 'support@leadstage.local',
      privacyUrl: 'http://localhost:3000/privacy',
      trustProxy: false,
      csvMaxBytes: 20 * 1024 * 1024,
      listMaxRows: 10_000,
      rateLimit: { loginPerEmail: 10, loginPerIp: 100, mailPerEmail: 5, windowSeconds: 900 },
      storage: { driver: 'local', maxFileBytes: 200 * 1024 * 1024, signedUrlTtlSeconds: 900, s3: { bucket: 'leadstage', region: 'us-east-1', forcePathStyle: false } },
      metricsToken: undefined,
      metricsPort: undefined,
      logLevel: 'info',
      integrationsAllowPrivate: false,
    });
    // Without SESSION_SECRET one is generated once and kept in the data directory.
    expect(c.sessionSecret).toBe(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(c.sessionSecret);
  });

  it('an empty variable counts as unset (a blank line copied from .env.example)', () => {
    expect(load({ PORT: '', STORAGE_DRIVER: '', TRUST_PROXY: '', LOG_LEVEL: '' })).toMatchObject({ port: 3000, storage: { driver: 'local' }, trustProxy: false, logLevel: 'info' });
  });

  it('reads typed values', () => {
    const c = load({
      PORT: '8080',
      PUBLIC_URL: 'https://leads.example.com/',
      DATABASE_URL: 'postgresql://u:p@db:5432/leadstage',
      DATABASE_POOL_MAX: '25',
      TRUST_PROXY: 'true',
      S3_FORCE_PATH_STYLE: '1',
      INTEGRATIONS_ALLOW_PRIVATE: 'false',
      STORAGE_DRIVER: 's3',
      LOG_LEVEL: 'debug',
      METRICS_TOKEN: 'metrics-token-0123456789',
      METRICS_PORT: '9464',
      LIST_MAX_ROWS: '500',
      MAIL_FROM: 'ops@example.com',
    });
    expect(c).toMatchObject({
      port: 8080,
      publicUrl: 'https://leads.example.com',
      secureCookies: true,
      privacyUrl: 'https://leads.example.com/privacy',
      databaseUrl: 'postgresql://u:p@db:5432/leadstage',
      databasePoolMax: 25,
      trustProxy: true,
      storage: { driver: 's3', s3: { forcePathStyle: true } },
      integrationsAllowPrivate: false,
      logLevel: 'debug',
      metricsToken: 'metrics-token-0123456789',
      metricsPort: 9464,
      listMaxRows: 500,
      mailFrom: 'ops@example.com',
    });
  });

  it('booleans accept exactly 1, 0, true and false', () => {
    for (const [value, expected] of [
      ['1', true],
      ['true', true],
      ['0', false],
      ['false', false],
    ] as const)
      expect(load({ TRUST_PROXY: value }).trustProxy).toBe(expected);
    for (const value of ['yes', 'TRUE', 'on', '2']) expect(problems({ TRUST_PROXY: value })).toEqual([`TRUST_PROXY: must be one of 1, 0, true, false (got "${value}")`]);
  });

  it('enum values are exact, and the message names the allowed ones', () => {
    expect(problems({ STORAGE_DRIVER: 'S3' })).toEqual(['STORAGE_DRIVER: must be one of local, s3 (got "S3")']);
    expect(problems({ LOG_LEVEL: 'verbose' })).toEqual(['LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")']);
  });

  it('integers are whole numbers within their range', () => {
    expect(problems({ PORT: 'abc' })).toEqual(['PORT: must be a whole number from 0 to 65535 (got "abc")']);
    expect(problems({ PORT: '70000' })).toEqual(['PORT: must be a whole number from 0 to 65535 (got "70000")']);
    expect(problems({ PORT: '3000.5' })).toEqual(['PORT: must be a whole number from 0 to 65535 (got "3000.5")']);
    expect(problems({ DATABASE_POOL_MAX: '0' })).toEqual(['DATABASE_POOL_MAX: must be a whole number from 1 to 1000 (got "0")']);
    expect(problems({ DATABASE_POOL_MAX: '1001' })).toEqual(['DATABASE_POOL_MAX: must be a whole number from 1 to 1000 (got "1001")']);
    expect(problems({ PASSWORD_MIN_LENGTH: '3' })).toEqual(['PASSWORD_MIN_LENGTH: must be a whole number from 4 to 1024 (got "3")']);
    expect(load({ DATABASE_POOL_MAX: '1000', PASSWORD_MIN_LENGTH: '4' })).toMatchObject({ databasePoolMax: 1000, passwordMinLength: 4 });
    // The trash: 30 days unless set, 1 to 3650.
    expect(load({}).trashDays).toBe(30);
    expect(load({ TRASH_DAYS: '7' }).trashDays).toBe(7);
    expect(problems({ TRASH_DAYS: '0' })).toEqual(['TRASH_DAYS: must be a whole number from 1 to 3650 (got "0")']);
  });

  it('URLs need their scheme; secrets are not echoed back', () => {
    expect(problems({ PUBLIC_URL: 'leads.example.com' })).toEqual(['PUBLIC_URL: must be a URL starting with http:// or https:// (got "leads.example.com")']);
    expect(problems({ S3_ENDPOINT: 'ftp://minio:9000' })).toEqual(['S3_ENDPOINT: must be a URL starting with http:// or https:// (got "ftp://minio:9000")']);
    expect(problems({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).toEqual(['DATABASE_URL: must be a URL starting with postgres:// or postgresql://']);
    expect(problems({ SMTP_URL: 'mail.example.com:25' })).toEqual(['SMTP_URL: must be a URL starting with smtp:// or smtps://']);
    expect(load({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl).toBe('smtps://u:p@mail.example.com:465');
  });

  it('e-mail addresses, secret lengths and the first-start password are checked', () => {
    expect(problems({ SUPPORT_EMAIL: 'support' })).toEqual(['SUPPORT_EMAIL: must be an e-mail address (got "support")']);
    expect(problems({ MAIL_FROM: 'Leadstage <no-reply>' })).toEqual(['MAIL_FROM: must be an e-mail address or Name <address> (got "Leadstage <no-reply>")']);
    expect(problems({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
    expect(problems({ SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET: must be at least 16 characters']);
    expect(problems({ ADMIN_PASSWORD: 'eleven-char' })).toEqual(['ADMIN_PASSWORD: must be at least PASSWORD_MIN_LENGTH (12) characters']);
    expect(load({ ADMIN_PASSWORD: 'eleven-char', PASSWORD_MIN_LENGTH: '8' }).adminPassword).toBe('eleven-char');
    expect(problems({ METRICS_PORT: '3000' })).toEqual(['METRICS_PORT: must differ from PORT']);
  });

  it('INTEGRATIONS_CA_FILE: the PEM certificates of a readable file; the badge scan waits 8 s', () => {
    const pem = path.join(dataDir, 'ca.pem');
    fs.writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(load({ INTEGRATIONS_CA_FILE: pem }).integrationsCa).toContain('BEGIN CERTIFICATE');
    expect(load({}).integrationsCa).toBeUndefined();
    expect(load({}).badgeScanTimeoutMs).toBe(8000);
    const missing = path.join(dataDir, 'nope.pem');
    expect(problems({ INTEGRATIONS_CA_FILE: missing })).toEqual([`INTEGRATIONS_CA_FILE: must be a readable file (got ${JSON.stringify(missing)})`]);
    const notPem = path.join(dataDir, 'not.pem');
    fs.writeFileSync(notPem, 'hello');
    expect(problems({ INTEGRATIONS_CA_FILE: notPem })).toEqual([`INTEGRATIONS_CA_FILE: must hold PEM certificates (-----BEGIN CERTIFICATE-----) (got ${JSON.stringify(notPem)})`]);
  });

  it('reports every problem at once, in one message naming each variable', () => {
    let error: unknown;
    try {
      load({ STORAGE_DRIVER: 'S3', PORT: 'eighty', TRUST_PROXY: 'yes', LOG_LEVEL: 'INFO', DATABASE_POOL_MAX: '-1' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      [
        'Invalid configuration:',
        '  PORT: must be a whole number from 0 to 65535 (got "eighty")',
        '  TRUST_PROXY: must be one of 1, 0, true, false (got "yes")',
        '  DATABASE_POOL_MAX: must be a whole number from 1 to 1000 (got "-1")',
        '  STORAGE_DRIVER: must be one of local, s3 (got "S3")',
        '  LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "INFO")',
      ].join('\n'),
    );
  });

  it('overrides win over the environment', () => {
    expect(loadConfig({ ...base, PORT: '8080' }, { port: 0, logLevel: 'silent' })).toMatchObject({ port: 0, logLevel: 'silent' });
  });
});

describe('.env.example', () => {
  const example = fs.readFileSync(path.resolve('.env.example'), 'utf8');
  const entries = example
    .split('\n')
    .filter((line) => /^[A-Z0-9_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);

  it('lists exactly the variables the configuration reads', () => {
    expect(entries.map(([name]) => name).sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('its values are valid as they stand', () => {
    expect(() => loadConfig({ ...Object.fromEntries(entries), DATA_DIR: dataDir })).not.toThrow();
  });
});

describe('loadDotEnv', () => {
  it('loads the file, leaving variables already set (even empty) alone', () => {
    const file = path.join(dataDir, '.env');
    fs.writeFileSync(file, 'LS_TEST_FROM_FILE=file\nLS_TEST_SET=file\nLS_TEST_EMPTY=file\n');
    process.env.LS_TEST_SET = 'environment';
    process.env.LS_TEST_EMPTY = '';
    try {
      loadDotEnv(file);
      expect([process.env.LS_TEST_FROM_FILE, process.env.LS_TEST_SET, process.env.LS_TEST_EMPTY]).toEqual(['file', 'environment', '']);
      expect(() => loadDotEnv(path.join(dataDir, 'missing.env'))).not.toThrow();
    } finally {
      for (const name of ['LS_TEST_FROM_FILE', 'LS_TEST_SET', 'LS_TEST_EMPTY']) delete process.env[name];
    }
  });
});
