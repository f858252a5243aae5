import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_DEACTIVATED_MESSAGE,
  authUserResponse,
  EMAIL_TAKEN_MESSAGE,
  loginRequest,
  registerRequest,
  registerResponse,
} from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import { loginAnswer, TWO_FACTOR_REQUIRED_MESSAGE } from '../../../common/contracts/two-factor';
import { currentUser } from '../../plugins/auth';
import { AppError, conflict, toHttpError, unauthorized } from '../../plugins/errors';
import type { AppDeps } from '../../app-deps';
import { recordAuditAlone } from '../../audit/audit';
import { newVerifyUrl } from './account-tokens';
import { findUserByEmail, findUserById, insertUser } from './accounts.queries';
import { refuseGuessablePassword } from './password-strength';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { presentAuthUser } from './accounts.presenter';
import { createChallenge } from './two-factor.queries';

export const INVALID_LOGIN = 'Invalid email or password';
export const LOGGED_IN_MESSAGE = 'Logged in successfully';
/** Accounts one address may create per hour. */
export const REGISTER_RATE_LIMIT = { max: 20, timeWindow: 60 * 60 * 1000 } as const;

export function accountsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/login',
      {
        config: { public: true },
        schema: {
          tags: ['accounts'],
          summary: 'Log in with e-mail and password',
          description:
            'With two-factor sign-in on, the answer is {mfaRequired: true, mfaToken, message} and POST /api/auth/2fa/verify finishes the sign-in.',
          body: loginRequest,
          response: {
            200: loginAnswer,
            400: errorResponse,
            401: errorResponse,
            429: errorResponse,
            503: errorResponse,
          },
        },
      },
      async (request) => {
        const { email, password } = request.body;
        // The attempt is counted BEFORE the password is checked (login-throttle.ts): guesses sent
        // at once cannot all slip past the limit. It stays counted unless the login succeeds.
        const attempt = await deps.loginThrottle.reserve(email, request.ip);
        const user = await findUserByEmail(deps.db, email);
        const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
        if (!user || !ok || !user.isActive) {
          // Who tried is not known: the event keeps the address typed and the account it names, if any.
          await recordAuditAlone(deps.db, {
            actor: null,
            actorLabel: email,
            action: 'auth.sign_in_failed',
            subject: { type: 'user', id: user?.id ?? null },
            after: { reason: !user ? 'unknown-account' : !ok ? 'wrong-password' : 'inactive-account' },
            ip: request.ip,
          });
          if (!user || !ok) throw unauthorized(INVALID_LOGIN);
          // Still 401 and still counted as a failure, but with the reason (docs/product/accounts-and-sessions.md).
          throw unauthorized(ACCOUNT_DEACTIVATED_MESSAGE);
        }
        // With two-factor sign-in on, the password only opens the second step (two-factor.routes.ts),
        // and the address becomes known only once that step is done too.
        await attempt.succeeded({ knownAddress: !user.totpSecret });
        if (user.totpSecret)
          return {
            mfaRequired: true as const,
            mfaToken: await createChallenge(deps.db, user.id),
            message: TWO_FACTOR_REQUIRED_MESSAGE,
          };
        const token = await deps.tokens.sign(user);
        await recordAuditAlone(deps.db, {
          actor: user,
          action: 'auth.signed_in',
          subject: { type: 'user', id: user.id },
          after: { method: 'password' },
          ip: request.ip,
        });
        return { token, message: LOGGED_IN_MESSAGE };
      },
    );

    app.post(
      '/api/register',
      {
        config: {
          public: true,
          // Per client address (docs/product/security.md); RATE_LIMITS=off leaves it unlimited.
          ...(deps.config.rateLimits ? { rateLimit: REGISTER_RATE_LIMIT } : {}),
        },
        schema: {
          tags: ['accounts'],
          summary: 'Create a customer account (rate limited per address)',
          body: registerRequest,
          response: {
            201: registerResponse,
            400: errorResponse,
            409: errorResponse,
            429: errorResponse,
            503: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const { email, password, firstName, lastName } = request.body;
        if (await findUserByEmail(deps.db, email)) throw conflict(EMAIL_TAKEN_MESSAGE);
        await refuseGuessablePassword(deps.db, password, { email, firstName, lastName }, 'password');
        const passwordHash = await hashPassword(password);
        try {
          const user = await deps.db.transaction(async (tx) => {
            const created = await insertUser(tx, { email, passwordHash, firstName, lastName, role: 'user' });
            // The welcome mail with its confirmation link commits with the account.
            await deps.mailer.queue(tx, created.email, 'welcome', {
              firstName: created.firstName,
              verifyUrl: await newVerifyUrl(tx, deps.mailer, created),
            });
            return created;
          });
          reply.code(201);
          return {
            id: user.id,
            email: user.email,
            firstName: user.firstName,
            lastName: user.lastName,
            role: user.role,
          };
        } catch (err) {
          // Two registrations racing for one e-mail: the unique index decides.
          if (toHttpError(err).status === 409) throw conflict(EMAIL_TAKEN_MESSAGE);
          throw err;
        }
      },
    );

    app.get(
      '/api/auth/user',
      {
        schema: {
          tags: ['accounts'],
          summary: 'The signed-in user',
          security: [{ bearer: [] }],
          response: { 200: authUserResponse, 401: errorResponse },
        },
      },
      async (request) => {
        const session = currentUser(request);
        const user = await findUserById(deps.db, session.id);
        if (!user) throw new AppError(401, 'Invalid or expired token');
        return presentAuthUser(user, session.twoFactorSetupRequired);
      },
    );
  };
}
