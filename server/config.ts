import { z } from 'zod';

// The only place that reads process.env. Every variable of README.md's configuration table.
const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(8, 'must be at least 8 characters').optional(),
  ),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  TOTP_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  RATE_LIMITS: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().optional()),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().default('loopback')),
  EXPORT_BATCH_ROWS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(1000)),
  PASSWORD_HASH_QUEUE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(64)),
  CUSTOMER_SUBMISSIONS_PER_HOUR: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(120)),
  CUSTOMER_STORAGE_MB: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .default(20 * 1024),
  ),
  ORPHAN_SWEEP_GRACE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(600)),
  VERIFICATION_LOG_RETENTION_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(36_500).default(400),
  ),
  STORAGE_S3_BUCKET: z.preprocess(emptyToUndefined, z.string().optional()),
  STORAGE_S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  STORAGE_S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  STORAGE_S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  STORAGE_S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  STORAGE_S3_PREFIX: z.preprocess(emptyToUndefined, z.string().default('')),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().max(255).optional()),
  PHOTO_COPY_TIMEOUT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().min(0.001).max(3600).default(120),
  ),
  PHOTO_COPY_MEMORY_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(16).default(1536)),
  JOBS_RETRY_FIRST_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.01).max(3600).default(30)),
  JOBS_RETRY_MAX_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(86_400).default(7200)),
  JOBS_LEASE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(3).max(3600).default(60)),
  SIGNING_P12: z.preprocess(emptyToUndefined, z.string().optional()),
  SIGNING_P12_PASSPHRASE: z.preprocess(emptyToUndefined, z.string().default('')),
  CREDENTIAL_KEYS: z.preprocess(emptyToUndefined, z.string().optional()),
  WEBHOOKS_ALLOW_LOOPBACK: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('0')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  /** Encrypts authenticator keys at rest (32 bytes, hex or base64); unset: DATA_DIR/totp-key. */
  totpKey: string | undefined;
  publicUrl: string;
  rateLimits: boolean;
  redisUrl: string | undefined;
  /**
   * Which peers may set X-Forwarded-For (proxy-addr syntax: 'loopback', CIDRs, comma-separated, or
   * 'none'). Only those are believed, so a client cannot forge its address around per-address limits.
   */
  trustProxy: string | false;
  logLevel: string;
  /** Where mail is delivered; unset: mails wait in the admin Outbox (docs/product/mail.md). */
  smtpUrl: string | undefined;
  /** The From header; unset: the lab's name <no-reply@PUBLIC_URL's host>. */
  mailFrom: string | undefined;
  /** The first retry delay of a failed background job; each later one doubles, up to 2 h. */
  jobsRetryFirstMs: number;
  /** The longest wait between two attempts of a failed job (the doubling stops there). */
  jobsRetryMaxMs: number;
  /** How long a running job is held before another instance may take it over (renewed while it runs). */
  jobsLeaseMs: number;
  /** The limits of the process that decodes photos and makes their copies (docs/product/photos.md). */
  photoCopyLimits: { timeoutMs: number; memoryBytes: number };
  /** Password hashes allowed to wait for a core; more are refused with 503 + Retry-After. */
  passwordHashQueue: number;
  /** Rows each CSV export reads per statement (one batch, written out before the next is read). */
  exportBatchRows: number;
  /** Per-customer limits (docs/product/security.md): submissions per hour, stored bytes. */
  customerSubmissionsPerHour: number;
  customerStorageBytes: number;
  /** Stored files without a row are removed once older than this (start-up and periodic sweep). */
  orphanSweepGraceMs: number;
  /** Days a public verification stays in the log before it is deleted. */
  verificationLogRetentionDays: number;
  /** PKCS#12 file with the PDF signing key and certificate chain; unset: generated under DATA_DIR. */
  signingP12: string | undefined;
  signingP12Passphrase: string;
  /** JSON file of the credential-signing keys (JWKs); unset: generated under DATA_DIR. */
  credentialKeys: string | undefined;
  /** Tests and local development only: webhooks may target loopback addresses (127.0.0.0/8, ::1). */
  webhooksAllowLoopback: boolean;
  /** Object storage for files instead of DATA_DIR/files, when STORAGE_S3_BUCKET is set. */
  s3:
    | {
        bucket: string;
        endpoint: string | undefined;
        region: string;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        prefix: string;
      }
    | undefined;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.STORAGE_S3_ACCESS_KEY_ID) !== Boolean(e.STORAGE_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY must be set together',
    );
  }
  if ((e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) || (!e.ADMIN_EMAIL && e.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    totpKey: e.TOTP_KEY,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    rateLimits: e.RATE_LIMITS === 'on',
    redisUrl: e.REDIS_URL,
    trustProxy: e.TRUST_PROXY === 'none' ? false : e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jobsRetryFirstMs: e.JOBS_RETRY_FIRST_SECONDS * 1000,
    jobsRetryMaxMs: e.JOBS_RETRY_MAX_SECONDS * 1000,
    jobsLeaseMs: e.JOBS_LEASE_SECONDS * 1000,
    orphanSweepGraceMs: e.ORPHAN_SWEEP_GRACE_SECONDS * 1000,
    verificationLogRetentionDays: e.VERIFICATION_LOG_RETENTION_DAYS,
    photoCopyLimits: {
      timeoutMs: Math.round(e.PHOTO_COPY_TIMEOUT_SECONDS * 1000),
      memoryBytes: e.PHOTO_COPY_MEMORY_MB * 1024 * 1024,
    },
    signingP12: e.SIGNING_P12,
    signingP12Passphrase: e.SIGNING_P12_PASSPHRASE,
    credentialKeys: e.CREDENTIAL_KEYS,
    webhooksAllowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK === '1',
    passwordHashQueue: e.PASSWORD_HASH_QUEUE,
    exportBatchRows: e.EXPORT_BATCH_ROWS,
    customerSubmissionsPerHour: e.CUSTOMER_SUBMISSIONS_PER_HOUR,
    customerStorageBytes: e.CUSTOMER_STORAGE_MB * 1024 * 1024,
    s3: e.STORAGE_S3_BUCKET
      ? {
          bucket: e.STORAGE_S3_BUCKET,
          endpoint: e.STORAGE_S3_ENDPOINT,
          region: e.STORAGE_S3_REGION,
          accessKeyId: e.STORAGE_S3_ACCESS_KEY_ID,
          secretAccessKey: e.STORAGE_S3_SECRET_ACCESS_KEY,
          prefix: e.STORAGE_S3_PREFIX,
        }
      : undefined,
  };
}
