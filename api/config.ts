import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import { isEmail } from '../resources/fields.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  /** Largest number of PostgreSQL connections per process (DATABASE_POOL_MAX). */
  databasePoolMax: number;
  /** V8's old-generation growing factor, as a percentage over 1 (HEAP_GROWING_PERCENT; 0: V8 decides; api/heap.ts). */
  heapGrowingPercent: number;
  publicUrl: string;
  sessionSecret: string;
  secureCookies: boolean;
  passwordMinLength: number;
  smtpUrl?: string;
  mailFrom: string;
  supportEmail: string;
  privacyUrl: string;
  adminEmail?: string;
  adminPassword?: string;
  trustProxy: boolean;
  csvMaxBytes: number;
  /** The most rows an unpaged list returns. */
  listMaxRows: number;
  /** Days a record stays in the trash before it is purged for good. */
  trashDays: number;
  /** The durable job queue (api/jobs/): mail that need not answer at once, and the timed work. */
  jobs: {
    /** How often an idle worker asks for new jobs (JOBS_POLL_MS). */
    pollMs: number;
    /** Retries after a job's first failure before it stays failed (JOBS_RETRY_LIMIT). */
    retryLimit: number;
    /** The first retry's delay; each later one doubles it, at most an hour (JOBS_RETRY_DELAY_SECONDS). */
    retryDelaySeconds: number;
    /** Minutes between trash purges (TRASH_PURGE_MINUTES). */
    trashPurgeMinutes: number;
    /** Minutes between sweeps of expired sessions, tokens, rate-limit windows and orphan files (SWEEP_MINUTES). */
    sweepMinutes: number;
  };
  rateLimit: { loginPerEmail: number; loginPerIp: number; mailPerEmail: number; windowSeconds: number };
  /** Public registrations per address and event per window (and as many access-code checks). */
  registrationLimit: { perIp: number; windowSeconds: number };
  /** Self sign-ups (POST /auth/signup) per address and per e-mail in RATE_LIMIT_WINDOW_SECONDS. */
  signupLimit: { perIp: number; perEmail: number };
  /** Public meeting requests (POST /meet/{eventId}) per address per window; hours a request waits for an answer. */
  meetings: { perIp: number; windowSeconds: number; expiryHours: number };
  /** Calls per API token per window (Bearer calls; then 429 too_many_requests with Retry-After). */
  apiTokenLimit: { perToken: number; windowSeconds: number };
  /** Player posts (play events) per code per window: every screen of a group shares its code (then 429, retried). */
  playLimit: { perCode: number; windowSeconds: number };
  storage: {
    driver: 'local' | 's3';
    maxFileBytes: number;
    signedUrlTtlSeconds: number;
    s3: { endpoint?: string; publicEndpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  };
  /** Bearer token for /metrics; unset with no metricsPort: no metrics. */
  metricsToken?: string;
  /** Metrics on their own port (no token), for a scraper on a private network. */
  metricsPort?: number;
  logLevel: LogLevel;
  /** An integration's API URL may be a private or loopback address (off: refused). */
  integrationsAllowPrivate: boolean;
  /** Extra certificate authorities (PEM) trusted for calls to integrations, beside the system's (INTEGRATIONS_CA_FILE). */
  integrationsCa?: string;
  /** How long a badge scan waits for the provider (BADGE_SCAN_TIMEOUT_MS; account-console.md: 8 s; tests shorten it). */
  badgeScanTimeoutMs: number;
}

/** Every problem found in the environment, one line each; the message is meant to be printed as is. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; problem: string }[]) {
    super(['Invalid configuration:', ...problems.map((p) => `  ${p.variable}: ${p.problem}`)].join('\n'));
    this.name = 'ConfigError';
  }
}

function fail(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

const int = (min: number, max: number) =>
  z.string().transform((v, ctx) => {
    const n = /^-?\d+$/.test(v) ? Number(v) : NaN;
    return Number.isSafeInteger(n) && n >= min && n <= max ? n : fail(ctx, `must be a whole number from ${min} to ${max}`);
  });

const bool = () => z.string().transform((v, ctx) => (v === '1' || v === 'true' ? true : v === '0' || v === 'false' ? false : fail(ctx, 'must be one of 1, 0, true, false')));

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string().transform((v, ctx) => ((values as readonly string[]).includes(v) ? (v as T[number]) : fail(ctx, `must be one of ${values.join(', ')}`)));

const url = (protocols: string[]) =>
  z.string().transform((v, ctx) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(v);
    } catch {
      // reported below
    }
    if (!parsed || !protocols.includes(parsed.protocol.slice(0, -1))) return fail(ctx, `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`);
    return v;
  });

const minLength = (min: number) => z.string().refine((v) => v.length >= min, { message: `must be at least ${min} characters` });

const emailAddress = () => z.string().refine(isEmail, { message: 'must be an e-mail address' });

/** "Name <address>" or a bare address. */
const mailbox = () => z.string().refine((v) => isEmail(v.match(/<([^<>]+)>$/)?.[1] ?? v), { message: 'must be an e-mail address or Name <address>' });

const HTTP = ['http', 'https'];

/** A readable file of PEM certificates; the value is its contents. */
const pemFile = () =>
  z.string().transform((v, ctx) => {
    let text: string;
    try {
      text = fs.readFileSync(v, 'utf8');
    } catch {
      return fail(ctx, 'must be a readable file');
    }
    return text.includes('-----BEGIN CERTIFICATE-----') ? text : fail(ctx, 'must hold PEM certificates (-----BEGIN CERTIFICATE-----)');
  });

/** The environment, variable by variable: '' counts as unset, so a blank line in .env means the default. */
const envSchema = z.object({
  PORT: int(0, 65535).default(3000),
  PUBLIC_URL: url(HTTP).optional(),
  TRUST_PROXY: bool().default(false),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  DATABASE_POOL_MAX: int(1, 1000).default(10),
  HEAP_GROWING_PERCENT: int(0, 300).default(50),
  DATA_DIR: z.string().default('./data'),
  SESSION_SECRET: minLength(16).optional(),
  ADMIN_EMAIL: emailAddress().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  PASSWORD_MIN_LENGTH: int(4, 1024).default(12),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: mailbox().default('Leadstage <no-reply@leadstage.local>'),
  SUPPORT_EMAIL: emailAddress().default('support@leadstage.local'),
  PRIVACY_URL: url(HTTP).optional(),
  LOGIN_LIMIT_PER_EMAIL: int(1, 1_000_000).default(10),
  LOGIN_LIMIT_PER_IP: int(1, 1_000_000).default(100),
  MAIL_LIMIT_PER_EMAIL: int(1, 1_000_000).default(5),
  RATE_LIMIT_WINDOW_SECONDS: int(1, 7 * 24 * 3600).default(15 * 60),
  REGISTRATION_LIMIT_PER_IP: int(1, 1_000_000_000).default(20),
  REGISTRATION_LIMIT_WINDOW_SECONDS: int(1, 7 * 24 * 3600).default(10 * 60),
  SIGNUP_LIMIT_PER_IP: int(1, 1_000_000_000).default(20),
  SIGNUP_LIMIT_PER_EMAIL: int(1, 1_000_000).default(5),
  MEETING_LIMIT_PER_IP: int(1, 1_000_000_000).default(20),
  MEETING_LIMIT_WINDOW_SECONDS: int(1, 7 * 24 * 3600).default(15 * 60),
  MEETING_EXPIRY_HOURS: int(1, 24 * 365).default(48),
  API_TOKEN_LIMIT: int(1, 1_000_000_000).default(600),
  API_TOKEN_LIMIT_WINDOW_SECONDS: int(1, 24 * 3600).default(60),
  PLAY_LIMIT_PER_CODE: int(1, 1_000_000_000).default(1200),
  PLAY_LIMIT_WINDOW_SECONDS: int(1, 24 * 3600).default(60),
  CSV_MAX_BYTES: int(1, 1024 ** 3).default(20 * 1024 * 1024),
  LIST_MAX_ROWS: int(1, 1_000_000).default(10_000),
  TRASH_DAYS: int(1, 3650).default(30),
  TRASH_PURGE_MINUTES: int(1, 7 * 24 * 60).default(60),
  SWEEP_MINUTES: int(1, 24 * 60).default(10),
  JOBS_POLL_MS: int(500, 60_000).default(2000),
  JOBS_RETRY_LIMIT: int(0, 100).default(8),
  JOBS_RETRY_DELAY_SECONDS: int(1, 24 * 3600).default(30),
  STORAGE_DRIVER: oneOf(['local', 's3']).default('local'),
  STORAGE_MAX_FILE_BYTES: int(1, 5 * 1024 ** 4).default(200 * 1024 * 1024),
  // S3 presigned URLs live at most 7 days.
  STORAGE_SIGNED_URL_TTL: int(1, 7 * 24 * 3600).default(15 * 60),
  S3_ENDPOINT: url(HTTP).optional(),
  S3_PUBLIC_ENDPOINT: url(HTTP).optional(),
  S3_BUCKET: z.string().default('leadstage'),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool().default(false),
  METRICS_TOKEN: minLength(16).optional(),
  METRICS_PORT: int(1, 65535).optional(),
  LOG_LEVEL: oneOf(LOG_LEVELS).default('info'),
  INTEGRATIONS_ALLOW_PRIVATE: bool().default(false),
  INTEGRATIONS_CA_FILE: pemFile().optional(),
  BADGE_SCAN_TIMEOUT_MS: int(100, 120_000).default(8000),
});

type Env = z.output<typeof envSchema>;

/** Every environment variable the configuration reads. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

// Values never echoed back in an error message.
const SECRETS = new Set(['DATABASE_URL', 'SESSION_SECRET', 'ADMIN_PASSWORD', 'SMTP_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'METRICS_TOKEN']);

/** Checks that involve two variables, on the values that parsed. */
function crossChecks(env: Partial<Env>): { variable: string; problem: string }[] {
  const problems: { variable: string; problem: string }[] = [];
  const min = env.PASSWORD_MIN_LENGTH;
  if (env.ADMIN_PASSWORD !== undefined && min !== undefined && env.ADMIN_PASSWORD.length < min)
    problems.push({ variable: 'ADMIN_PASSWORD', problem: `must be at least PASSWORD_MIN_LENGTH (${min}) characters` });
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) problems.push({ variable: 'METRICS_PORT', problem: 'must differ from PORT' });
  return problems;
}

/** Parses every variable, collecting all problems before throwing one ConfigError. */
function parseEnv(env: NodeJS.ProcessEnv): Env {
  const values: Record<string, unknown> = {};
  const problems: { variable: string; problem: string }[] = [];
  for (const [name, schema] of Object.entries(envSchema.shape)) {
    const raw = env[name] === '' ? undefined : env[name];
    const result = (schema as z.ZodType).safeParse(raw);
    if (result.success) {
      values[name] = result.data;
    } else {
      const got = SECRETS.has(name) ? '' : ` (got ${JSON.stringify(raw)})`;
      for (const issue of result.error.issues) problems.push({ variable: name, problem: `${issue.message}${got}` });
    }
  }
  problems.push(...crossChecks(values as Partial<Env>));
  if (problems.length) throw new ConfigError(problems);
  return values as Env;
}

/** A secret kept in data/ so sessions survive restarts when SESSION_SECRET is unset. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** The configuration from `env`; throws a ConfigError listing every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = parseEnv(env);
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const config: Config = {
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    publicUrl,
    sessionSecret: e.SESSION_SECRET || overrides.sessionSecret || persistentSecret(dataDir),
    secureCookies: publicUrl.startsWith('https://'),
    passwordMinLength: e.PASSWORD_MIN_LENGTH,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    privacyUrl: e.PRIVACY_URL ?? `${publicUrl}/privacy`,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    trustProxy: e.TRUST_PROXY,
    csvMaxBytes: e.CSV_MAX_BYTES,
    listMaxRows: e.LIST_MAX_ROWS,
    trashDays: e.TRASH_DAYS,
    jobs: {
      pollMs: e.JOBS_POLL_MS,
      retryLimit: e.JOBS_RETRY_LIMIT,
      retryDelaySeconds: e.JOBS_RETRY_DELAY_SECONDS,
      trashPurgeMinutes: e.TRASH_PURGE_MINUTES,
      sweepMinutes: e.SWEEP_MINUTES,
    },
    rateLimit: {
      loginPerEmail: e.LOGIN_LIMIT_PER_EMAIL,
      loginPerIp: e.LOGIN_LIMIT_PER_IP,
      mailPerEmail: e.MAIL_LIMIT_PER_EMAIL,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    },
    registrationLimit: { perIp: e.REGISTRATION_LIMIT_PER_IP, windowSeconds: e.REGISTRATION_LIMIT_WINDOW_SECONDS },
    signupLimit: { perIp: e.SIGNUP_LIMIT_PER_IP, perEmail: e.SIGNUP_LIMIT_PER_EMAIL },
    meetings: { perIp: e.MEETING_LIMIT_PER_IP, windowSeconds: e.MEETING_LIMIT_WINDOW_SECONDS, expiryHours: e.MEETING_EXPIRY_HOURS },
    apiTokenLimit: { perToken: e.API_TOKEN_LIMIT, windowSeconds: e.API_TOKEN_LIMIT_WINDOW_SECONDS },
    playLimit: { perCode: e.PLAY_LIMIT_PER_CODE, windowSeconds: e.PLAY_LIMIT_WINDOW_SECONDS },
    storage: {
      driver: e.STORAGE_DRIVER,
      maxFileBytes: e.STORAGE_MAX_FILE_BYTES,
      signedUrlTtlSeconds: e.STORAGE_SIGNED_URL_TTL,
      s3: {
        endpoint: e.S3_ENDPOINT,
        // The address browsers reach the store at, for presigned URLs (default: S3_ENDPOINT).
        publicEndpoint: e.S3_PUBLIC_ENDPOINT,
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
    },
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    logLevel: e.LOG_LEVEL,
    integrationsAllowPrivate: e.INTEGRATIONS_ALLOW_PRIVATE,
    integrationsCa: e.INTEGRATIONS_CA_FILE,
    badgeScanTimeoutMs: e.BADGE_SCAN_TIMEOUT_MS,
  };
  return { ...config, ...overrides };
}
