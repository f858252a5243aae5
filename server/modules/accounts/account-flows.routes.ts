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
} from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { enqueueJob } from '../../jobs/jobs';
import { currentUser } from '../../plugins/auth';
import { badRequest, unauthorized } from '../../plugins/errors';
import {
  changePassword,
  confirmEmail,
  endAllSessions,
  endSession,
  resendVerification,
  resetPassword,
  savePreferences,
} from './account-flows';
import { presentAuthUser } from './accounts.presenter';
import {
  PASSWORD_RESET_QUEUE,
  type PasswordResetPayload,
  registerPasswordResetJob,
} from './password-reset.job';

// Password reset, e-mail confirmation, password change and ending sessions
// (docs/product/accounts-and-sessions.md); the work is in ./account-flows.ts.

/** Reset requests one network address may make (429 beyond). */
export const FORGOT_RATE_LIMIT = { max: 10, timeWindow: 15 * 60 * 1000 } as const;

export function accountFlowRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const limited = deps.config.rateLimits ? { rateLimit: FORGOT_RATE_LIMIT } : {};

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
        const done = await resetPassword(deps, { token, password, ip: request.ip });
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
        const ok = await confirmEmail(deps.db, request.body.token);
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
        await resendVerification(deps, currentUser(request).id);
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
        const { user, sessionVersion } = await changePassword(deps, {
          userId: currentUser(request).id,
          currentPassword: request.body.currentPassword,
          newPassword: request.body.newPassword,
          ip: request.ip,
          who: auditContext(request),
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
        const row = await savePreferences(deps.db, currentUser(request).id, request.body);
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
        await endSession(deps.db, currentUser(request).id, request.session);
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
