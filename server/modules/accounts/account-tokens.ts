import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accountTokens } from '../../db/schema';
import type { Mailer } from '../../mail/mailer';

// Single-use e-mail tokens (docs/product/accounts-and-sessions.md): 256 random bits sent in the
// mail, only their SHA-256 stored, so a copy of the database cannot use them.

export type AccountTokenPurpose = 'reset' | 'verify';
export const RESET_TOKEN_MINUTES = 60;
export const VERIFY_TOKEN_DAYS = 7;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createAccountToken(
  tx: DbOrTx,
  input: { userId: number; purpose: AccountTokenPurpose; email?: string; ttlMs: number },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(accountTokens).values({
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashOf(token),
    email: input.email ?? null,
    expiresAt: new Date(Date.now() + input.ttlMs),
  });
  return token;
}

/**
 * A new link confirming the account's current address (valid VERIFY_TOKEN_DAYS), for the welcome
 * mail, an e-mail change or a resend; created in the mail's transaction.
 */
export async function newVerifyUrl(
  tx: DbOrTx,
  mailer: Pick<Mailer, 'url'>,
  user: { id: number; email: string },
): Promise<string> {
  const token = await createAccountToken(tx, {
    userId: user.id,
    purpose: 'verify',
    email: user.email,
    ttlMs: VERIFY_TOKEN_DAYS * 24 * 60 * 60_000,
  });
  return mailer.url(`/verify-email?token=${token}`);
}

/** Marks the token used and answers its row, or null when it is wrong, used or expired. */
export async function consumeAccountToken(tx: DbOrTx, token: string, purpose: AccountTokenPurpose) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, hashOf(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

/** Every unused token of this purpose stops working (a reset or a new password ends older links). */
export async function revokeAccountTokens(tx: DbOrTx, userId: number, purpose: AccountTokenPurpose) {
  await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
    );
}

/** How many tokens of this purpose the account received since `since` (per-account throttle). */
export async function countRecentTokens(
  tx: DbOrTx,
  userId: number,
  purpose: AccountTokenPurpose,
  since: Date,
) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, purpose),
        gte(accountTokens.createdAt, since),
      ),
    );
  return Number(row?.n ?? 0);
}
