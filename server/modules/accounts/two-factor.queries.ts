import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { RECOVERY_CODE_COUNT } from '../../../common/contracts/two-factor';
import type { DbOrTx } from '../../db/client';
import { mfaChallenges, recoveryCodes, users } from '../../db/schema';
import { base32Encode, matchTotp } from './totp';
import type { TotpVault } from './totp-vault';

// The storage side of two-factor sign-in (docs/product/accounts-and-sessions.md). Every "once only"
// rule is one conditional UPDATE, so two requests racing with the same code cannot both win.

/** How long the second step of a sign-in may wait for its code. */
export const MFA_CHALLENGE_MS = 5 * 60 * 1000;
/** Wrong codes one pending sign-in may take before it ends (the password is asked again). */
export const MFA_CHALLENGE_MAX_FAILURES = 5;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A recovery code as typed: spaces, dashes and case do not matter. */
const recoveryHash = (code: string) => sha256(code.replace(/[\s-]/g, '').toLowerCase());

/** Random bits in each recovery code: too many to guess even with the SHA-256 in hand. */
export const RECOVERY_CODE_BITS = 80;

/**
 * Ten fresh recovery codes, `xxxx-xxxx-xxxx-xxxx`: 16 base32 characters of 5 bits, 80 random bits
 * each. Codes made before (`xxxxx-xxxxx`) still work: a typed code is compared without its dashes.
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = base32Encode(randomBytes(RECOVERY_CODE_BITS / 8)).toLowerCase();
    return text.match(/.{4}/g)?.join('-') ?? text;
  });
}

/** The recovery codes replace every older one of the account (stored as SHA-256 only). */
export async function replaceRecoveryCodes(tx: DbOrTx, userId: number, codes: readonly string[]) {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(c) })));
}

/** Stores the key waiting to be confirmed, already sealed (`TotpVault.seal`). */
export async function setPendingSecret(db: DbOrTx, userId: number, secret: string): Promise<void> {
  await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
}

/** Turns two-factor sign-in on with the confirmed secret; the recovery codes replace any older ones. */
/** Call it in a transaction (the owner's notice commits with it). */
export async function enableTotp(
  tx: DbOrTx,
  userId: number,
  secret: string,
  step: number,
  codes: readonly string[],
): Promise<boolean> {
  const updated = await tx
    .update(users)
    .set({ totpSecret: secret, totpPendingSecret: null, totpEnabledAt: new Date(), totpLastStep: step })
    .where(and(eq(users.id, userId), isNull(users.totpSecret)))
    .returning({ id: users.id });
  if (!updated.length) return false;
  await replaceRecoveryCodes(tx, userId, codes);
  return true;
}

/** Turns it off with its recovery codes and pending sign-ins; true when it was on. Call it in a transaction. */
export async function disableTotp(tx: DbOrTx, userId: number): Promise<boolean> {
  const [before] = await tx
    .select({ on: sql<boolean>`${users.totpSecret} is not null` })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  await tx
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(users.id, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(mfaChallenges).where(eq(mfaChallenges.userId, userId));
  return Boolean(before?.on);
}

/**
 * Which kind of second factor `code` is — the account's current app code (not used before) or one of
 * its unused recovery codes — or null when it is neither; either is spent by this call.
 */
export async function spendSecondFactor(
  db: DbOrTx,
  vault: TotpVault,
  user: { id: number; totpSecret: string | null; totpLastStep: number | null },
  code: string,
  nowMs = Date.now(),
): Promise<'app' | 'recovery' | null> {
  if (!user.totpSecret) return null;
  if (/^\d{6}$/.test(code)) {
    const step = matchTotp(vault.open(user.id, user.totpSecret), code, nowMs, user.totpLastStep);
    if (step === null) return null;
    const won = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return won.length > 0 ? 'app' : null;
  }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, recoveryHash(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0 ? 'recovery' : null;
}

export async function unusedRecoveryCodes(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/** A new pending sign-in for `userId`: the token goes to the client, its SHA-256 to the table. */
export async function createChallenge(db: DbOrTx, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.delete(mfaChallenges).where(lt(mfaChallenges.expiresAt, new Date()));
  await db
    .insert(mfaChallenges)
    .values({ tokenHash: sha256(token), userId, expiresAt: new Date(Date.now() + MFA_CHALLENGE_MS) });
  return token;
}

/** The live pending sign-in behind `token`, or null. */
export async function findChallenge(db: DbOrTx, token: string) {
  const [row] = await db
    .select({ id: mfaChallenges.id, userId: mfaChallenges.userId })
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.tokenHash, sha256(token)), gt(mfaChallenges.expiresAt, new Date())))
    .limit(1);
  return row ?? null;
}

/** Counts a wrong code against the pending sign-in and ends it after the last allowed one. */
export async function failChallenge(db: DbOrTx, id: number): Promise<void> {
  const [row] = await db
    .update(mfaChallenges)
    .set({ failures: sql`${mfaChallenges.failures} + 1` })
    .where(eq(mfaChallenges.id, id))
    .returning({ failures: mfaChallenges.failures });
  if (row && row.failures >= MFA_CHALLENGE_MAX_FAILURES)
    await db.delete(mfaChallenges).where(eq(mfaChallenges.id, id));
}

/** Ends a pending sign-in; true when this call ended it (so only one request can finish it). */
export async function endChallenge(db: DbOrTx, id: number): Promise<boolean> {
  const gone = await db
    .delete(mfaChallenges)
    .where(eq(mfaChallenges.id, id))
    .returning({ id: mfaChallenges.id });
  return gone.length > 0;
}
