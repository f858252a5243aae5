import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { exponentialBackoff, type JobWorker } from '../../jobs/jobs';
import type { Mailer } from '../../mail/mailer';
import { countRecentTokens, createAccountToken, RESET_TOKEN_MINUTES } from './account-tokens';
import { findUserByEmail } from './accounts.queries';

// A password-reset request is answered before anything about the address is looked up: the route
// only queues this job, the same single insert for an existing account and for an unknown address,
// so the answer's timing tells nobody whether an account exists (docs/product/security.md). The job
// does the rest: the lookup, the per-account hourly count, the token and the mail.

export const PASSWORD_RESET_QUEUE = 'password-reset-requests';
export type PasswordResetPayload = { email: string };

/** Reset and confirmation mails one account may receive per hour; more are silently not sent. */
export const ACCOUNT_MAILS_PER_HOUR = 3;
const HOUR = 60 * 60_000;

/** Mails a reset link to the active account of `email`, if there is one and its hourly count allows. */
export async function mailPasswordReset(deps: { db: Db; mailer: Mailer }, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user?.isActive) return;
  await deps.db.transaction(async (tx) => {
    // Serialises one account's requests, so the per-account count holds under a burst.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    if (
      (await countRecentTokens(tx, user.id, 'reset', new Date(Date.now() - HOUR))) >= ACCOUNT_MAILS_PER_HOUR
    )
      return;
    const token = await createAccountToken(tx, {
      userId: user.id,
      purpose: 'reset',
      ttlMs: RESET_TOKEN_MINUTES * 60_000,
    });
    await deps.mailer.queue(tx, user.email, 'passwordReset', {
      firstName: user.firstName,
      resetUrl: deps.mailer.url(`/reset-password?token=${token}`),
    });
  });
}

export function registerPasswordResetJob(jobs: JobWorker, deps: { db: Db; mailer: Mailer }): void {
  jobs.registerJobHandler<PasswordResetPayload>(
    PASSWORD_RESET_QUEUE,
    async ({ email }) => {
      await mailPasswordReset(deps, email);
    },
    { backoff: exponentialBackoff(5_000), concurrency: 2 },
  );
}
