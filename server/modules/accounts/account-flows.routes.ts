import { eq, lt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authUserResponse,
  changePasswordRequest,
  changePasswordResponse,
  EMAIL_VERIFIED,
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordRequest,
  messageResponse,
  PASSWORD_RESET_DONE,
  preferencesRequest,
  RESET_TOKEN_INVALID,
  resetPasswordRequest,
  VERIFY_EMAIL_SENT,
  VERIFY_TOKEN_INVALID,
  verifyEmailRequest,
  WRONG_CURRENT_PASSWORD,
} from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import type { DbOrTx } from '../../db/client';
import { revokedTokens, users } from '../../db/schema';
import { currentUser } from '../../plugins/auth';
import { badRequest, unauthorized } from '../../plugins/errors';
import { consumeAccountToken, countRecentTokens, revokeAccountTokens, newVerifyUrl } from './account-tokens';
import { findUserById } from './accounts.queries';
import { checkCurrentPassword } from './current-password';
import { refuseGuessablePassword } from './password-strength';
import { hashPassword } from './passwords';
import {
  ACCOUNT_MAILS_PER_HOUR,
  PASSWORD_RESET_QUEUE,
  type PasswordResetPayload,
  registerPasswordResetJob,
} from './password-reset.job';
import { presentAuthUser } from './accounts.presenter';
import { enqueueJob } from '../../jobs/jobs';

// Password reset, e-mail confirmation, password change and ending sessions
// (docs/product/accounts-and-sessions.md).

/** Reset requests one network address may make (429 beyond). */
export const FORGOT_RATE_LIMIT = { max: 10, timeWindow: 15 * 60 * 1000 } as const;

const HOUR = 60 * 60_000;

/** Ends every token of the user: the next request with one of them is 401. */
export async function endAllSessions(tx: DbOrTx, userId: number): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ sessionVersion: users.sessionVersion });
  return row?.sessionVersion ?? 0;
}

export function accountFlowRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const limited = deps.config.rateLimits ? { rateLimit: FORGOT_RATE_LIMIT } : {};
  const forgotUrl = () => deps.mailer.url('/forgot-password');

  async function queueVerification(
    tx: DbOrTx,
    user: { id: number; email: string; firstName: string | null },
  ) {
    await deps.mailer.queue(tx, user.email, 'verifyEmail', {
      firstName: user.firstName,
      verifyUrl: await newVerifyUrl(tx, deps.mailer, user),
    });
  }

  return async (app) => {
    registerPasswordResetJob(deps.jobs, { db: deps.db, mailer: deps.mailer });

    app.post(
      '/api/auth/forgot-password',
      {
        config: { public: true, ...limited },
        schema: {
          tags: ['accounts'],
          summary: 'Mail a password-reset link (the same answer whether or not the account exists)',
          body: forgotPasswordRequest,
          response: { 202: messageResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        // One insert whatever the address: the job looks the account up (./password-reset.job.ts).
        await enqueueJob<PasswordResetPayload>(deps.db, {
          queue: PASSWORD_RESET_QUEUE,
          payload: { email: request.body.email },
        });
        reply.code(202);
        return { message: FORGOT_PASSWORD_ANSWER };
      },
    );

    app.post(
      '/api/auth/reset-password',
      {
        config: { public: true, ...limited },
        schema: {
          tags: ['accounts'],
          summary: 'Set a new password with the token from the reset mail; every session ends',
          body: resetPasswordRequest,
          response: { 200: messageResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const { token, password } = request.body;
        const passwordHash = await hashPassword(password);
        const done = await deps.db.transaction(async (tx) => {
          const used = await consumeAccountToken(tx, token, 'reset');
          if (!used) return false;
          // Refused here, the transaction rolls back and the link still works for a better password.
          const [owner] = await tx.select().from(users).where(eq(users.id, used.userId));
          if (owner) await refuseGuessablePassword(tx, password, owner, 'password');
          const [user] = await tx
            .update(users)
            .set({ passwordHash, updatedAt: new Date() })
            .where(eq(users.id, used.userId))
            .returning();
          if (!user?.isActive) return false;
          await endAllSessions(tx, user.id);
          await revokeAccountTokens(tx, user.id, 'reset');
          await deps.mailer.queue(tx, user.email, 'passwordChanged', {
            firstName: user.firstName,
            loginUrl: deps.mailer.url('/login'),
            forgotUrl: forgotUrl(),
          });
          // Nobody is signed in: the actor is the account whose reset link was used.
          await recordAudit(tx, {
            actor: user,
            action: 'auth.password_reset',
            subject: { type: 'user', id: user.id },
            after: { via: 'reset-link', sessionsEnded: true },
            ip: request.ip,
          });
          return true;
        });
        if (!done) throw badRequest(RESET_TOKEN_INVALID, [{ path: 'token', message: RESET_TOKEN_INVALID }]);
        return { message: PASSWORD_RESET_DONE };
      },
    );

    app.post(
      '/api/auth/verify-email',
      {
        config: { public: true, ...limited },
        schema: {
          tags: ['accounts'],
          summary: 'Confirm the e-mail address with the token from the welcome mail',
          body: verifyEmailRequest,
          response: { 200: messageResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const ok = await deps.db.transaction(async (tx) => {
          const used = await consumeAccountToken(tx, request.body.token, 'verify');
          if (!used?.email) return false;
          // Only the address the link was sent to: a later e-mail change makes old links worthless.
          const rows = await tx
            .update(users)
            .set({ emailVerifiedAt: new Date() })
            .where(sql`${users.id} = ${used.userId} and ${users.email} = ${used.email}`)
            .returning({ id: users.id });
          return rows.length > 0;
        });
        if (!ok) throw badRequest(VERIFY_TOKEN_INVALID, [{ path: 'token', message: VERIFY_TOKEN_INVALID }]);
        return { message: EMAIL_VERIFIED };
      },
    );

    app.post(
      '/api/auth/verify-email/resend',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail a new confirmation link to the signed-in user',
          security: [{ bearer: [] }],
          response: { 202: messageResponse, 401: errorResponse },
        },
      },
      async (request, reply) => {
        const me = currentUser(request);
        await deps.db.transaction(async (tx) => {
          const [user] = await tx.select().from(users).where(eq(users.id, me.id)).for('update');
          if (!user || user.emailVerifiedAt) return;
          if (
            (await countRecentTokens(tx, user.id, 'verify', new Date(Date.now() - HOUR))) >=
            ACCOUNT_MAILS_PER_HOUR
          )
            return;
          await queueVerification(tx, user);
        });
        reply.code(202);
        return { message: VERIFY_EMAIL_SENT };
      },
    );

    app.put(
      '/api/users/password',
      {
        schema: {
          tags: ['accounts'],
          summary:
            'Change the password (current one required); other sessions end, this one gets a fresh token',
          security: [{ bearer: [] }],
          body: changePasswordRequest,
          response: {
            200: changePasswordResponse,
            400: errorResponse,
            401: errorResponse,
            429: errorResponse,
            503: errorResponse,
          },
        },
      },
      async (request) => {
        const me = currentUser(request);
        const user = await findUserById(deps.db, me.id);
        if (!user) throw unauthorized('Invalid or expired token');
        await checkCurrentPassword(
          deps.loginThrottle,
          user,
          request.body.currentPassword,
          request.ip,
          'currentPassword',
          WRONG_CURRENT_PASSWORD,
        );
        await refuseGuessablePassword(deps.db, request.body.newPassword, user, 'newPassword');
        const passwordHash = await hashPassword(request.body.newPassword);
        const sessionVersion = await deps.db.transaction(async (tx) => {
          await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
          const version = await endAllSessions(tx, user.id);
          await revokeAccountTokens(tx, user.id, 'reset');
          await deps.mailer.queue(tx, user.email, 'passwordChanged', {
            firstName: user.firstName,
            loginUrl: deps.mailer.url('/login'),
            forgotUrl: forgotUrl(),
          });
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'auth.password_changed',
            subject: { type: 'user', id: user.id },
            after: { via: 'profile', otherSessionsEnded: true },
          });
          return version;
        });
        const token = await deps.tokens.sign({ id: user.id, role: user.role, sessionVersion });
        return { token, message: 'Password changed' };
      },
    );

    app.put(
      '/api/users/preferences',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Mail preferences of the signed-in user',
          security: [{ bearer: [] }],
          body: preferencesRequest,
          response: { 200: authUserResponse, 400: errorResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const me = currentUser(request);
        const [row] = await deps.db
          .update(users)
          .set({ notifyStatusChanges: request.body.notifyStatusChanges, updatedAt: new Date() })
          .where(eq(users.id, me.id))
          .returning();
        if (!row) throw unauthorized('Invalid or expired token');
        return presentAuthUser(row);
      },
    );

    app.post(
      '/api/auth/logout',
      {
        schema: {
          tags: ['accounts'],
          summary: 'End this token at once',
          security: [{ bearer: [] }],
          response: { 204: z.null(), 401: errorResponse },
        },
      },
      async (request, reply) => {
        currentUser(request);
        const session = request.session;
        if (session?.jti) {
          await deps.db
            .insert(revokedTokens)
            .values({ jti: session.jti, expiresAt: new Date(session.exp * 1000) })
            .onConflictDoNothing();
          // Entries outlive their token by nothing: expired ones are dropped as we go.
          await deps.db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
        } else {
          // A token without an id (issued before ids existed): end them all.
          await endAllSessions(deps.db, currentUser(request).id);
        }
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/auth/logout-all',
      {
        schema: {
          tags: ['accounts'],
          summary: 'End every token of the signed-in user ("Sign out everywhere")',
          security: [{ bearer: [] }],
          response: { 204: z.null(), 401: errorResponse },
        },
      },
      async (request, reply) => {
        await endAllSessions(deps.db, currentUser(request).id);
        return reply.code(204).send(null);
      },
    );
  };
}
