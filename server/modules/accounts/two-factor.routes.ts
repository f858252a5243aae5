import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { loginResponse } from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import {
  MFA_TOKEN_INVALID,
  mfaVerifyRequest,
  PASSWORD_INCORRECT,
  recoveryCodesRequest,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_NOT_ON,
  totpEnableRequest,
  totpEnableResponse,
  totpSetupRequest,
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
import { checkCurrentPassword } from './current-password';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';
import { mailTwoFactorNotice } from './two-factor-notices';
import {
  disableTotp,
  enableTotp,
  endChallenge,
  failChallenge,
  findChallenge,
  newRecoveryCodes,
  replaceRecoveryCodes,
  setPendingSecret,
  spendSecondFactor,
  unusedRecoveryCodes,
} from './two-factor.queries';

const ALREADY_ON = 'Two-factor sign-in is already on. Turn it off first to set it up again.';
const NO_PENDING_SETUP = 'Start the set-up again: no key is waiting to be confirmed.';

const codeError = () =>
  badRequest(TWO_FACTOR_CODE_INVALID, [{ path: 'code', message: TWO_FACTOR_CODE_INVALID }]);

/**
 * Two-factor sign-in (docs/product/accounts-and-sessions.md): set-up from the profile, the second
 * step of a login, new recovery codes, turning it off. Every change asks for the current password
 * (throttled like a login) and is mailed to the owner. Wrong codes count as failed logins of the
 * account from that address and, across all addresses, against the account's guess limit
 * (login-throttle.ts).
 */
export function twoFactorRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = {
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      409: errorResponse,
      429: errorResponse,
      503: errorResponse,
    };

    /** The signed-in account, once its current password is confirmed. */
    const confirmedUser = async (request: Parameters<typeof currentUser>[0], password: string) => {
      const user = await findUserById(deps.db, currentUser(request).id);
      if (!user) throw unauthorized();
      await checkCurrentPassword(
        deps.loginThrottle,
        user,
        password,
        request.ip,
        'password',
        PASSWORD_INCORRECT,
      );
      return user;
    };

    /** Checks a second-factor code against the account's guess limit; answers its kind. */
    const spendCounted = async (
      user: NonNullable<Awaited<ReturnType<typeof findUserById>>>,
      code: string,
    ) => {
      const guess = await deps.loginThrottle.reserveSecondFactor(user.id);
      const kind = await spendSecondFactor(deps.db, deps.totpVault, user, code).catch(async (err) => {
        await guess.succeeded();
        throw err;
      });
      if (kind) await guess.succeeded();
      else await guess.failed((tx) => mailTwoFactorNotice(tx, deps.mailer, user, 'guessLimitReached'));
      return kind;
    };

    app.post(
      '/api/auth/2fa/totp/setup',
      {
        schema: {
          tags: ['accounts'],
          summary:
            'Start setting up an authenticator app (current password required): a new key, its otpauth URL and QR code',
          security: [{ bearer: [] }],
          body: totpSetupRequest,
          response: { 200: totpSetupResponse, ...errors },
        },
      },
      async (request) => {
        if (currentUser(request).twoFactorEnabled) throw conflict(ALREADY_ON);
        const user = await confirmedUser(request, request.body.password);
        if (user.totpSecret) throw conflict(ALREADY_ON);
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
          summary:
            'Confirm the new key with a code from the app and the current password; answers the 10 recovery codes, once',
          security: [{ bearer: [] }],
          body: totpEnableRequest,
          response: { 200: totpEnableResponse, ...errors },
        },
      },
      async (request) => {
        const user = await confirmedUser(request, request.body.password);
        if (user.totpSecret) throw conflict(ALREADY_ON);
        if (!user.totpPendingSecret) throw badRequest(NO_PENDING_SETUP);
        const pending = deps.totpVault.open(user.id, user.totpPendingSecret);
        const step = matchTotp(pending, request.body.code, Date.now(), null);
        if (step === null) throw codeError();
        const codes = newRecoveryCodes();
        // Sealed for this account, the pending key is stored as the key as it is.
        const on = await deps.db.transaction(async (tx) => {
          if (!(await enableTotp(tx, user.id, deps.totpVault.seal(user.id, pending), step, codes)))
            return false;
          await mailTwoFactorNotice(tx, deps.mailer, user, 'enabled');
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'user.two_factor_enabled',
            subject: { type: 'user', id: user.id },
            before: { twoFactorEnabled: false },
            after: { twoFactorEnabled: true, method: 'totp' },
          });
          return true;
        });
        if (!on) throw conflict(ALREADY_ON);
        return {
          recoveryCodes: codes,
          message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: each works once.',
        };
      },
    );

    app.post(
      '/api/auth/2fa/recovery-codes',
      {
        schema: {
          tags: ['accounts'],
          summary:
            'Make 10 new recovery codes (current password required); the old ones stop working. Answered once',
          security: [{ bearer: [] }],
          body: recoveryCodesRequest,
          response: { 200: totpEnableResponse, ...errors },
        },
      },
      async (request) => {
        const user = await confirmedUser(request, request.body.password);
        if (!user.totpSecret) throw conflict(TWO_FACTOR_NOT_ON);
        const codes = newRecoveryCodes();
        await deps.db.transaction(async (tx) => {
          await replaceRecoveryCodes(tx, user.id, codes);
          await mailTwoFactorNotice(tx, deps.mailer, user, 'recoveryCodesRenewed');
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'user.recovery_codes_renewed',
            subject: { type: 'user', id: user.id },
            after: { recoveryCodes: codes.length },
          });
        });
        return {
          recoveryCodes: codes,
          message: 'New recovery codes are ready. The old ones no longer work.',
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
          description:
            'After 10 wrong codes for one account within 15 minutes (from any address), 429 for every code until the window has passed.',
          body: mfaVerifyRequest,
          response: {
            200: loginResponse,
            400: errorResponse,
            401: errorResponse,
            429: errorResponse,
            503: errorResponse,
          },
        },
      },
      async (request) => {
        const { mfaToken, code } = request.body;
        const challenge = await findChallenge(deps.db, mfaToken);
        const user = challenge ? await findUserById(deps.db, challenge.userId) : undefined;
        if (!challenge || !user?.isActive || !user.totpSecret) throw unauthorized(MFA_TOKEN_INVALID);
        // The account's guess limit first (429 even for the right code), then the per-address
        // limits; both are counted before the code is checked, like a password (login-throttle.ts).
        const guess = await deps.loginThrottle.reserveSecondFactor(user.id);
        let kind: 'app' | 'recovery' | null;
        let attempt: Awaited<ReturnType<typeof deps.loginThrottle.reserve>>;
        try {
          attempt = await deps.loginThrottle.reserve(user.email, request.ip);
          kind = await spendSecondFactor(deps.db, deps.totpVault, user, code);
        } catch (err) {
          await guess.succeeded();
          throw err;
        }
        const method = /^\d{6}$/.test(code) ? 'totp' : 'recovery-code';
        if (!kind) {
          await guess.failed((tx) => mailTwoFactorNotice(tx, deps.mailer, user, 'guessLimitReached'));
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
        await guess.succeeded();
        if (!(await endChallenge(deps.db, challenge.id))) throw unauthorized(MFA_TOKEN_INVALID);
        // A complete sign-in: from now on this address is one the account signs in from.
        await attempt.succeeded();
        if (kind === 'recovery') {
          const left = await unusedRecoveryCodes(deps.db, user.id);
          await deps.db.transaction((tx) =>
            mailTwoFactorNotice(tx, deps.mailer, user, 'recoveryCodeUsed', left),
          );
        }
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
          response: { 200: z.object({ message: z.string() }), ...errors },
        },
      },
      async (request) => {
        const user = await confirmedUser(request, request.body.password);
        if (!user.totpSecret) throw badRequest(TWO_FACTOR_NOT_ON);
        if (!(await spendCounted(user, request.body.code))) throw codeError();
        await deps.db.transaction(async (tx) => {
          if (!(await disableTotp(tx, user.id))) return;
          await mailTwoFactorNotice(tx, deps.mailer, user, 'disabled');
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
