import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl?: string;
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
  rateLimit: { loginPerEmail: number; loginPerIp: number; mailPerEmail: number; windowSeconds: number };
  storage: {
    driver: 'local' | 's3';
    maxFileBytes: number;
    signedUrlTtlSeconds: number;
    s3: { endpoint?: string; publicEndpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  };
  logLevel: LogLevel;
  /** Bearer token that opens GET /metrics on the public port (unset: no metrics there). */
  metricsToken?: string;
  /** A separate internal port for /metrics; then the public port never serves it. */
  metricsPort?: number;
}

export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function int(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const port = int(env.PORT, 3000);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '');
  const config: Config = {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl,
    sessionSecret: env.SESSION_SECRET || overrides.sessionSecret || persistentSecret(dataDir),
    secureCookies: publicUrl.startsWith('https://'),
    passwordMinLength: int(env.PASSWORD_MIN_LENGTH, 12),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Leadstage <no-reply@leadstage.local>',
    supportEmail: env.SUPPORT_EMAIL || 'support@leadstage.local',
    privacyUrl: env.PRIVACY_URL || `${publicUrl}/privacy`,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    csvMaxBytes: int(env.CSV_MAX_BYTES, 20 * 1024 * 1024),
    rateLimit: {
      loginPerEmail: int(env.LOGIN_LIMIT_PER_EMAIL, 10),
      loginPerIp: int(env.LOGIN_LIMIT_PER_IP, 100),
      mailPerEmail: int(env.MAIL_LIMIT_PER_EMAIL, 5),
      windowSeconds: int(env.RATE_LIMIT_WINDOW_SECONDS, 15 * 60),
    },
    storage: {
      driver: env.STORAGE_DRIVER === 's3' ? 's3' : 'local',
      maxFileBytes: int(env.STORAGE_MAX_FILE_BYTES, 200 * 1024 * 1024),
      signedUrlTtlSeconds: int(env.STORAGE_SIGNED_URL_TTL, 15 * 60),
      s3: {
        endpoint: env.S3_ENDPOINT || undefined,
        // The address browsers reach the store at, for presigned URLs (default: S3_ENDPOINT).
        publicEndpoint: env.S3_PUBLIC_ENDPOINT || undefined,
        bucket: env.S3_BUCKET || 'leadstage',
        region: env.S3_REGION || 'us-east-1',
        accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
      },
    },
    logLevel: (LOG_LEVELS as readonly string[]).includes(env.LOG_LEVEL ?? '') ? (env.LOG_LEVEL as LogLevel) : 'info',
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: int(env.METRICS_PORT, 0) || undefined,
  };
  return { ...config, ...overrides };
}
