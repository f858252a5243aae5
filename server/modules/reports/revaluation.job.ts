import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { addDays, REVALUATION_NOTICE_DAYS } from '../../../common/domain/appraisal';
import type { DbOrTx } from '../../db/client';
import { samples } from '../../db/schema';
import { enqueueJob, exponentialBackoff, type JobWorker } from '../../jobs/jobs';
import { mailRevaluationDue } from '../../mail/notifications';
import type { Mailer } from '../../mail/mailer';

// Re-valuation notices (docs/product/appraisal-report.md): when a value becomes public, a job is
// queued for 30 days before its re-valuation date, in the same transaction. The queue runs it once
// across instances (its dedupe key is the sample and the date); the handler mails the owner only if
// that date is still the sample's and nobody was told about it yet, marking it in the same
// transaction as the mail, so a run repeated after a crash sends nothing twice.

export const REVALUATION_QUEUE = 'reports.revaluation-notice';
export type RevaluationPayload = { sampleId: number; revalueBy: string };

/** Queues the notice of a value just made public (inside the publishing transaction). */
export async function scheduleRevaluationNotice(tx: DbOrTx, sampleId: number, revalueBy: string | null) {
  if (!revalueBy) return;
  const runAt = new Date(`${addDays(revalueBy, -REVALUATION_NOTICE_DAYS)}T08:00:00Z`);
  await enqueueJob<RevaluationPayload>(tx, {
    queue: REVALUATION_QUEUE,
    payload: { sampleId, revalueBy },
    runAt: runAt.getTime() < Date.now() ? undefined : runAt,
    dedupeKey: `revaluation:${sampleId}:${revalueBy}`,
  });
}

/** Sends one notice, if it is still due; answers whether a mail was queued. */
export async function sendRevaluationNotice(
  deps: { db: DbOrTx; mailer: Mailer },
  { sampleId, revalueBy }: RevaluationPayload,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(samples)
      .set({ revaluationNoticeFor: revalueBy })
      .where(
        and(
          eq(samples.id, sampleId),
          eq(samples.revalueBy, revalueBy),
          isNull(samples.reportRevokedAt),
          or(isNull(samples.revaluationNoticeFor), sql`${samples.revaluationNoticeFor} <> ${revalueBy}`),
        ),
      )
      .returning({
        id: samples.id,
        userId: samples.userId,
        itemName: samples.itemName,
        reportCode: samples.reportCode,
      });
    if (!row?.reportCode) return false;
    await mailRevaluationDue(tx, deps.mailer, { ...row, reportCode: row.reportCode }, revalueBy);
    return true;
  });
}

export function registerRevaluationJob(jobs: JobWorker, deps: { db: DbOrTx; mailer: Mailer }): void {
  jobs.registerJobHandler<RevaluationPayload>(
    REVALUATION_QUEUE,
    async (payload) => {
      await sendRevaluationNotice(deps, payload);
    },
    { backoff: exponentialBackoff(60_000), concurrency: 1 },
  );
}
