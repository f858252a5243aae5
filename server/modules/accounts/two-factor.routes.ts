import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginResponse } from '../../../common/contracts/accounts';
import { errorResponse } from '../../../common/contracts/errors';
import {
  mfaVerifyRequest,
  recoveryCodesRequest,
  totpEnableRequest,
  totpEnableResponse,
  totpSetupRequest,
  totpSetupResponse,
  twoFactorDisableRequest,
} from '../../../common/contracts/two-factor';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser } from '../../plugins/auth';
import { conflict } from '../../plugins/errors';
import { LOGGED_IN_MESSAGE } from './accounts.routes';
import {
  ALREADY_ON,
  completeSecondStep,
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  startTotpSetup,
} from './two-factor-flows';

/**
 * Two-factor sign-in's calls (docs/product/accounts-and-sessions.md); what each does, and its limits,
 * is in two-factor-flows.ts.
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
        return startTotpSetup(deps, currentUser(request).id, request.body.password, request.ip);
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
      async (request) => ({
        recoveryCodes: await enableTwoFactor(
          deps,
          auditContext(request),
          request.ip,
          currentUser(request).id,
          request.body,
        ),
        message: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: each works once.',
      }),
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
      async (request) => ({
        recoveryCodes: await renewRecoveryCodes(
          deps,
          auditContext(request),
          request.ip,
          currentUser(request).id,
          request.body.password,
        ),
        message: 'New recovery codes are ready. The old ones no longer work.',
      }),
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
      async (request) => ({
        token: await completeSecondStep(deps, request.body, request.ip),
        message: LOGGED_IN_MESSAGE,
      }),
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
        await disableTwoFactor(
          deps,
          auditContext(request),
          request.ip,
          currentUser(request).id,
          request.body,
        );
        return { message: 'Two-factor sign-in is off.' };
      },
    );
  };
}
