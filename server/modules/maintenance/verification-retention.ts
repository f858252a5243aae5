import { lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { verificationLog } from '../../db/schema';

// Every public verification writes a row (code, result, the network it came from). Owners read
// their report's recent checks; nobody needs them for ever, and a network is personal data. Rows
// older than the retention are deleted (docs/product/security.md, VERIFICATION_LOG_RETENTION_DAYS).
// Deleting old rows twice is harmless, so every instance runs it: no coordination is needed.

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

const DAY_MS = 86_400_000;

/** Deletes the verification log entries older than `retentionDays`; returns how many. */
export async function pruneVerificationLog(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const gone = await db
    .delete(verificationLog)
    .where(lt(verificationLog.at, cutoff))
    .returning({ id: verificationLog.id });
  return gone.length;
}

/** Prunes at start and then once a day, never keeping the process alive. */
export function scheduleVerificationLogPruning(opts: { db: Db; retentionDays: number; log: Log }): {
  first: Promise<void>;
  stop(): void;
} {
  const run = () =>
    pruneVerificationLog(opts.db, opts.retentionDays)
      .then((count) => {
        if (count) opts.log.info({ count }, 'verification log entries past their retention deleted');
      })
      .catch((err: Error) => opts.log.warn({ err: err.name }, 'verification log pruning failed; will retry'));
  const first = run();
  const timer = setInterval(run, DAY_MS);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
