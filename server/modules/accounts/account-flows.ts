import { eq, lt, sql } from 'drizzle-orm';
import { WRONG_CURRENT_PASSWORD } from '../../../common/contracts/accounts';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db, DbOrTx } from '../../db/client';
import { revokedTokens, users } from '../../db/schema';
import type { SessionToken } from '../../plugins/auth';
import { unauthorized } from '../../plugins/errors';
import { consumeAccountToken, countRecentTokens, newVerifyUrl, revokeAccountTokens } from './account-tokens';
import { findUserById, type UserRow } from './accounts.queries';
import { checkCurrentPassword } from './current-password';
import { refuseGuessablePassword } from './password-strength';
import { hashPassword } from './passwords';
import { ACCOUNT_MAILS_PER_HOUR } from './password-reset.job';

// The account flows behind account-flows.routes.ts (docs/product/accounts-and-sessions.md): a reset
// through the mailed link, the e-mail confirmation, a new confirmation link, a password change from
// the profile, the mail preferences and ending sessions. Each change and its mail and audit event
// are one transaction.

const HOUR = 60 * 60_000;

type FlowDeps = Pick<AppDeps, 'db' | 'mailer'>;

/** Ends every token of the user: the next request with one of them is 401. */
export async function endAllSessions(tx: DbOrTx, userId: number): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  return row?.sessionVersion ?? 0;
}

/** The "your password was changed" mail, with the links to sign in and to reset it again. */
function queuePasswordChanged(deps: FlowDeps, tx: DbOrTx, user: UserRow) {
  return deps.mailer.queue(tx, user.email, 'passwordChanged', {
    firstName: user.firstName,
    loginUrl: deps.mailer.url('/login'),
    forgotUrl: deps.mailer.url('/forgot-password'),
  });
}

/**
 * A new password through the reset link: false when the link is unknown, used, expired or its
 * account deactivated. A guessable password is refused before anything changes (the link keeps
 * working). Every session ends.
 */
export async function resetPassword(
  deps: FlowDeps,
  input: { token: string; password: string; ip: string },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.password);
  return deps.db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, input.token, 'reset');
    if (!used) return false;
    // Refused here, the transaction rolls back and the link still works for a better password.
    const [owner] = await tx.select().from(users).where(eq(users.id, used.userId));
    if (owner) await refuseGuessablePassword(tx, input.password, owner, 'password');
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(users.id, used.userId))
      .returning();
    if (!user?.isActive) return false;
    await endAllSessions(tx, user.id);
    await revokeAccountTokens(tx, user.id, 'reset');
    await queuePasswordChanged(deps, tx, user);
    // Nobody is signed in: the actor is the account whose reset link was used.
    await recordAudit(tx, {
      actor: user,
      action: 'auth.password_reset',
      subject: { type: 'user', id: user.id },
      after: { via: 'reset-link', sessionsEnded: true },
      ip: input.ip,
    });
    return true;
  });
}

/** The address confirmed by its link: false when the link is unknown, used, expired, or the address changed since. */
export function confirmEmail(db: Db, token: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, 'verify');
    if (!used?.email) return false;
    // Only the address the link was sent to: a later e-mail change makes old links worthless.
    const rows = await tx
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(sql`${users.id} = ${used.userId} and ${users.email} = ${used.email}`)
      .returning({ id: users.id });
    return rows.length > 0;
  });
}

/** Queues the confirmation mail with a new link (inside the caller's transaction). */
export async function queueVerification(
  deps: FlowDeps,
  tx: DbOrTx,
  user: { id: number; email: string; firstName: string | null },
): Promise<void> {
  await deps.mailer.queue(tx, user.email, 'verifyEmail', {
    firstName: user.firstName,
    verifyUrl: await newVerifyUrl(tx, deps.mailer, user),
  });
}

/** A new confirmation link for an unconfirmed address, at most ACCOUNT_MAILS_PER_HOUR an hour; otherwise nothing. */
export function resendVerification(deps: FlowDeps, userId: number): Promise<void> {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user || user.emailVerifiedAt) return;
    if (
      (await countRecentTokens(tx, user.id, 'verify', new Date(Date.now() - HOUR))) >= ACCOUNT_MAILS_PER_HOUR
    )
      return;
    await queueVerification(deps, tx, user);
  });
}

/**
 * A password change from the profile: the current password checked (and throttled), the new one
 * refused when guessable; other sessions end. Returns the session version for this session's new token.
 */
export async function changePassword(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'loginThrottle'>,
  input: { userId: number; currentPassword: string; newPassword: string; ip: string; who: AuditWho },
): Promise<{ user: UserRow; sessionVersion: number }> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw unauthorized('Invalid or expired token');
  await checkCurrentPassword(
    deps.loginThrottle,
    user,
    input.currentPassword,
    input.ip,
    'currentPassword',
    WRONG_CURRENT_PASSWORD,
  );
  await refuseGuessablePassword(deps.db, input.newPassword, user, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  const sessionVersion = await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    const version = await endAllSessions(tx, user.id);
    await revokeAccountTokens(tx, user.id, 'reset');
    await queuePasswordChanged(deps, tx, user);
    await recordAudit(tx, {
      ...input.who,
      action: 'auth.password_changed',
      subject: { type: 'user', id: user.id },
      after: { via: 'profile', otherSessionsEnded: true },
    });
    return version;
  });
  return { user, sessionVersion };
}

/** The signed-in user's mail preferences; undefined when the account is gone. */
export async function savePreferences(
  db: Db,
  userId: number,
  prefs: { notifyStatusChanges: boolean },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ notifyStatusChanges: prefs.notifyStatusChanges, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/** Ends one token at once (its id is refused until it expires), or all of them for a token without an id. */
export async function endSession(db: Db, userId: number, session: SessionToken | null): Promise<void> {
  if (session?.jti) {
    await db
      .insert(revokedTokens)
      .values({ jti: session.jti, expiresAt: new Date(session.exp * 1000) })
      .onConflictDoNothing();
    // Entries outlive their token by nothing: expired ones are dropped as we go.
    await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
  } else {
    // A token without an id (issued before ids existed): end them all.
    await endAllSessions(db, userId);
  }
}
