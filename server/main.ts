import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app';
import { StartupError } from './plugins/auth';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { ensureFirstAdmin } from './modules/accounts/first-admin';
import { warmPasswordStrengthWorker } from './modules/accounts/password-strength';
import { scheduleOrphanSweep } from './modules/maintenance/orphan-sweep';
import { scheduleVerificationLogPruning } from './modules/maintenance/verification-retention';
import { CredentialKeysError } from './modules/signing/credential-keys';
import { SigningConfigError } from './modules/signing/lab-certificates';
import { reportMissingPhotoCopies } from './modules/photos/backfill-photos';
import { createDiskStorage } from './storage/disk-storage';
import { createS3Storage } from './storage/s3-storage';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  // DATA_DIR and everything the process creates under it: owner only (0700 folders, 0600 files).
  process.umask(0o077);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // ADMIN_PASSWORD is scored below: the worker loads its word lists while the database opens.
  if (config.adminPassword) warmPasswordStrengthWorker();

  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config);
  } catch (err) {
    const where = config.databaseUrl
      ? 'the PostgreSQL database at DATABASE_URL'
      : `the embedded database in ${join(config.dataDir, 'db')}`;
    console.error(`Cannot open ${where}: ${(err as Error).message.split('\n')[0]}`);
    process.exit(1);
  }

  const storage = config.s3
    ? await createS3Storage(config.s3)
    : createDiskStorage(join(config.dataDir, 'files'));
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, database, storage });
  } catch (err) {
    // A signing key that cannot be read (SIGNING_P12, CREDENTIAL_KEYS) stops start-up plainly.
    if (err instanceof SigningConfigError || err instanceof CredentialKeysError) {
      console.error(`Invalid configuration:\n  ${err.message}`);
      await database.close();
      process.exit(1);
    }
    // A JWT secret that is too short (docs/product/security.md).
    if (err instanceof StartupError) {
      console.error(err.message);
      await database.close();
      process.exit(1);
    }
    throw err;
  }

  let generated: Awaited<ReturnType<typeof ensureFirstAdmin>>;
  try {
    generated = await ensureFirstAdmin(database.db, {
      email: config.adminEmail,
      password: config.adminPassword,
    });
  } catch (err) {
    // ADMIN_EMAIL of an existing non-admin account is never promoted.
    if (!(err instanceof StartupError)) throw err;
    console.error(err.message);
    await app.close();
    await database.close();
    process.exit(1);
  }
  if (generated) {
    // Printed once, on the console only: never to the structured log.
    process.stdout.write(
      `\n  No admin account existed, so one was created.\n  Admin login: ${generated.email}\n  Password:    ${generated.password}\n  (shown only this once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)\n\n`,
    );
  }

  // Files left by a process killed between its file and its row (docs/decisions/0008-hardening.md): removed at start,
  // then every 10 minutes; only files older than the grace period, for other instances' sake.
  const sweep = scheduleOrphanSweep({
    db: database.db,
    storage,
    graceMs: config.orphanSweepGraceMs,
    everyMs: 10 * 60_000,
    log: app.log,
  });
  await sweep.first;
  // Public verifications older than VERIFICATION_LOG_RETENTION_DAYS are deleted (docs/product/security.md).
  const pruning = scheduleVerificationLogPruning({
    db: database.db,
    retentionDays: config.verificationLogRetentionDays,
    log: app.log,
  });
  await pruning.first;
  await reportMissingPhotoCopies(database, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    sweep.stop();
    pruning.stop();
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err: (err as Error).name }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: database.kind, publicUrl: config.publicUrl }, 'valuation lab ready');
}

void main();
