import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { loginResponse } from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import {
  MFA_TOKEN_INVALID,
  mfaVerifyRequest,
  TWO_FACTOR_CODE_INVALID,
  totpEnableRequest,
  totpEnableResponse,
  totpSetupResponse,
  twoFactorDisableRequest,
} from '../../../common/contracts/two-factor';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import type { AppDeps } from '../../app-deps';
import { recordAudit, recordAuditAlone } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { currentUser } from '../../plugins/auth';
import { badRequest, conflict, unauthorized } from '../../plugins/errors';
import { readLabSettings } from '../../db/lab-settings';
import { LOGGED_IN_MESSAGE } from './accounts.routes';
import { findUserById } from './accounts.queries';
import { verifyPassword } from './passwords';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';
import {
  disableTotp,
  enableTotp,
  endChallenge,
  failChallenge,
  findChallenge,
  newRecoveryCodes,
  setPendingSecret,
  spendSecondFactor,
} from './two-factor.queries';

const ALREADY_ON = 'Two-factor sign-in is already on. Turn it off first to set it up again.';
const NOT_ON = 'Two-factor sign-in is not on for this account';
const NO_PENDING_SETUP = 'Start the set-up again: no key is waiting to be confirmed.';
const WRONG_PASSWORD = 'Password is incorrect';

const codeError = () =>
  badRequest(TWO_FACTOR_CODE_INVALID, [{ path: 'code', message: TWO_FACTOR_CODE_INVALID }]);

/**
 * Two-factor sign-in (docs/product/accounts-and-sessions.md): set-up from the profile, the second
 * step of a login, turning it off. Wrong codes count as failed logins of the account from that
 * address (login-throttle.ts), so the second step is throttled exactly like the first.
 */
export function twoFactorRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse };

    app.post(
      '/api/auth/2fa/totp/setup',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Start setting up an authenticator app: a new key, its otpauth URL and QR code',
          security: [{ bearer: [] }],
          response: { 200: totpSetupResponse, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        if (user.twoFactorEnabled) throw conflict(ALREADY_ON);
        const secret = newTotpSecret();
        await setPendingSecret(deps.db, user.id, deps.totpVault.seal(user.id, secret));
        const issuer = (await readLabSettings(deps.db))?.labName?.trim() || DEFAULT_LAB_NAME;
        const url = otpauthUrl(secret, user.email, issuer);
        const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
        return {
          secret,
          otpauthUrl: url,
          qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        };
      },
    );

    app.post(
      '/api/auth/2fa/totp/enable',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Confirm the new key with a code from the app; answers the 10 recovery codes, once',
          security: [{ bearer: [] }],
          body: totpEnableRequest,
          response: { 200: totpEnableResponse, ...errors },
        },
      },
      async (request) => {
        const session = currentUser(request);
        const user = await findUserById(deps.db, session.id);
        if (!user) throw unauthorized();
        if (user.totpSecret) throw conflict(ALREADY_ON);
        if (!user.totpPendingSecret) throw badRequest(NO_PENDING_SETUP);
        const pending = deps.totpVault.open(user.id, user.totpPendingSecret);
        const step = matchTotp(pending, request.body.code, Date.now(), null);
        if (step === null) throw codeError();
        const codes = newRecoveryCodes();
        // Sealed for this account, the pending key is stored as the key as it is.
        const enabled = await deps.db.transaction(async (tx) => {
          if (!(await enableTotp(tx, user.id, deps.totpVault.seal(user.id, pending), step, codes)))
            return false;
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'user.two_factor_enabled',
            subject: { type: 'user', id: user.id },
            before: { twoFactorEnabled: false },
            after: { twoFactorEnabled: true, method: 'totp' },
          });
          return true;
        });
        if (!enabled) throw conflict(ALREADY_ON);
        return {
          recoveryCodes: codes,
          message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: each works once.',
        };
      },
    );

    app.post(
      '/api/auth/2fa/verify',
      {
        config: { public: true },
        schema: {
          tags: ['accounts'],
          summary: 'The second step of a login: the mfaToken of POST /login and an app or recovery code',
          body: mfaVerifyRequest,
          response: { 200: loginResponse, 400: errorResponse, 401: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const { mfaToken, code } = request.body;
        const challenge = await findChallenge(deps.db, mfaToken);
        const user = challenge ? await findUserById(deps.db, challenge.userId) : undefined;
        if (!challenge || !user?.isActive || !user.totpSecret) throw unauthorized(MFA_TOKEN_INVALID);
        // Counted before the code is checked, like a password (login-throttle.ts).
        const attempt = await deps.loginThrottle.reserve(user.email, request.ip);
        const method = /^\d{6}$/.test(code) ? 'totp' : 'recovery-code';
        if (!(await spendSecondFactor(deps.db, deps.totpVault, user, code))) {
          await failChallenge(deps.db, challenge.id);
          await recordAuditAlone(deps.db, {
            actor: null,
            actorLabel: user.email,
            action: 'auth.sign_in_failed',
            subject: { type: 'user', id: user.id },
            after: { reason: 'wrong-second-factor', method },
            ip: request.ip,
          });
          throw unauthorized(TWO_FACTOR_CODE_INVALID);
        }
        if (!(await endChallenge(deps.db, challenge.id))) throw unauthorized(MFA_TOKEN_INVALID);
        await attempt.succeeded();
        const token = await deps.tokens.sign(user);
        await recordAuditAlone(deps.db, {
          actor: user,
          action: 'auth.signed_in',
          subject: { type: 'user', id: user.id },
          after: { method: `password+${method}` },
          ip: request.ip,
        });
        return { token, message: LOGGED_IN_MESSAGE };
      },
    );

    app.post(
      '/api/auth/2fa/disable',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Turn two-factor sign-in off: the password and a current app or recovery code',
          security: [{ bearer: [] }],
          body: twoFactorDisableRequest,
          response: { 200: z.object({ message: z.string() }), ...errors, 429: errorResponse },
        },
      },
      async (request) => {
        const session = currentUser(request);
        const user = await findUserById(deps.db, session.id);
        if (!user) throw unauthorized();
        if (!user.totpSecret) throw badRequest(NOT_ON);
        const attempt = await deps.loginThrottle.reserve(user.email, request.ip);
        if (!(await verifyPassword(user.passwordHash, request.body.password)))
          throw badRequest(WRONG_PASSWORD, [{ path: 'password', message: WRONG_PASSWORD }]);
        if (!(await spendSecondFactor(deps.db, deps.totpVault, user, request.body.code))) throw codeError();
        await attempt.succeeded();
        await deps.db.transaction(async (tx) => {
          await disableTotp(tx, user.id);
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'user.two_factor_disabled',
            subject: { type: 'user', id: user.id },
            before: { twoFactorEnabled: true },
            after: { twoFactorEnabled: false },
          });
        });
        return { message: 'Two-factor sign-in is off.' };
      },
    );
  };
}
