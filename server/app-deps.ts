import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { JobWorker } from './jobs/jobs';
import type { Mailer } from './mail/mailer';
import type { LoginThrottle } from './modules/accounts/login-throttle';
import type { TotpVault } from './modules/accounts/totp-vault';
import type { PhotoCopier } from './modules/photos/photo-copier';
import type { LabKeys } from './modules/signing/lab-keys';
import type { TokenService } from './plugins/auth';
import type { Storage } from './storage/storage';

/**
 * What the app hands every module (built once by server/app.ts). Modules import this type from
 * here, never app.ts, so a module does not depend on the code that assembles all the others.
 */
export type AppDeps = {
  config: Config;
  database: Database;
  db: Db;
  storage: Storage;
  tokens: TokenService;
  loginThrottle: LoginThrottle;
  /** Seals and opens the authenticator keys stored with the accounts (docs/product/security.md). */
  totpVault: TotpVault;
  /** The background-job worker: modules register their handlers on it (docs/architecture.md). */
  jobs: JobWorker;
  /** The PDF signing identity and the credential keys. */
  keys: LabKeys;
  /** The mail outbox: `deps.mailer.queue(tx, to, kind, data)` inside the event's transaction. */
  mailer: Mailer;
  /** Decodes photos and makes their copies in a child process, with time and memory limits. */
  photoCopier: PhotoCopier;
};
