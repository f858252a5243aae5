import {
  MFA_TOKEN_INVALID,
  PASSWORD_INCORRECT,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_NOT_ON,
} from '../../../common/contracts/two-factor';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, recordAudit, recordAuditAlone } from '../../audit/audit';
import { readLabSettings } from '../../db/lab-settings';
import { badRequest, conflict, unauthorized } from '../../plugins/errors';
import { findUserById, type UserRow } from './accounts.queries';
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

// Two-factor sign-in behind two-factor.routes.ts (docs/product/accounts-and-sessions.md): set-up from
// the profile, the second step of a login, new recovery codes, turning it off. Every change asks for
// the current password (throttled like a login) and is mailed to the owner with its audit event in the
// same transaction. Wrong codes count as failed logins of the account from that address and, across
// all addresses, against the account's guess limit (login-throttle.ts).

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'loginThrottle' | 'totpVault' | 'tokens'>;

export const ALREADY_ON = 'Two-factor sign-in is already on. Turn it off first to set it up again.';
const NO_PENDING_SETUP = 'Start the set-up again: no key is waiting to be confirmed.';

const codeError = () =>
  badRequest(TWO_FACTOR_CODE_INVALID, [{ path: 'code', message: TWO_FACTOR_CODE_INVALID }]);

/** The signed-in account, once its current password is confirmed. */
async function confirmedUser(deps: Deps, userId: number, password: string, ip: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw unauthorized();
  await checkCurrentPassword(deps.loginThrottle, user, password, ip, 'password', PASSWORD_INCORRECT);
  return user;
}

/** Checks a second-factor code against the account's guess limit; answers its kind. */
async function spendCounted(deps: Deps, user: UserRow, code: string) {
  const guess = await deps.loginThrottle.reserveSecondFactor(user.id);
  const kind = await spendSecondFactor(deps.db, deps.totpVault, user, code).catch(async (err) => {
    await guess.succeeded();
    throw err;
  });
  if (kind) await guess.succeeded();
  else await guess.failed((tx) => mailTwoFactorNotice(tx, deps.mailer, user, 'guessLimitReached'));
  return kind;
}

/** A new key waiting to be confirmed, with its otpauth URL and QR code (an SVG data URL). */
export async function startTotpSetup(deps: Deps, userId: number, password: string, ip: string) {
  const user = await confirmedUser(deps, userId, password, ip);
  if (user.totpSecret) throw conflict(ALREADY_ON);
  const secret = newTotpSecret();
  await setPendingSecret(deps.db, user.id, deps.totpVault.seal(user.id, secret));
  const issuer = (await readLabSettings(deps.db))?.labName?.trim() || DEFAULT_LAB_NAME;
  const url = otpauthUrl(secret, user.email, issuer);
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return {
    secret,
    otpauthUrl: url,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/** Confirms the waiting key with a code from the app; answers the 10 recovery codes, shown once. */
export async function enableTwoFactor(
  deps: Deps,
  who: AuditWho,
  ip: string,
  userId: number,
  body: { password: string; code: string },
): Promise<string[]> {
  const user = await confirmedUser(deps, userId, body.password, ip);
  if (user.totpSecret) throw conflict(ALREADY_ON);
  if (!user.totpPendingSecret) throw badRequest(NO_PENDING_SETUP);
  const pending = deps.totpVault.open(user.id, user.totpPendingSecret);
  const step = matchTotp(pending, body.code, Date.now(), null);
  if (step === null) throw codeError();
  const codes = newRecoveryCodes();
  // Sealed for this account, the pending key is stored as the key as it is.
  const on = await deps.db.transaction(async (tx) => {
    if (!(await enableTotp(tx, user.id, deps.totpVault.seal(user.id, pending), step, codes))) return false;
    await mailTwoFactorNotice(tx, deps.mailer, user, 'enabled');
    await recordAudit(tx, {
      ...who,
      action: 'user.two_factor_enabled',
      subject: { type: 'user', id: user.id },
      before: { twoFactorEnabled: false },
      after: { twoFactorEnabled: true, method: 'totp' },
    });
    return true;
  });
  if (!on) throw conflict(ALREADY_ON);
  return codes;
}

/** Ten new recovery codes; the old ones stop working. */
export async function renewRecoveryCodes(
  deps: Deps,
  who: AuditWho,
  ip: string,
  userId: number,
  password: string,
): Promise<string[]> {
  const user = await confirmedUser(deps, userId, password, ip);
  if (!user.totpSecret) throw conflict(TWO_FACTOR_NOT_ON);
  const codes = newRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, user.id, codes);
    await mailTwoFactorNotice(tx, deps.mailer, user, 'recoveryCodesRenewed');
    await recordAudit(tx, {
      ...who,
      action: 'user.recovery_codes_renewed',
      subject: { type: 'user', id: user.id },
      after: { recoveryCodes: codes.length },
    });
  });
  return codes;
}

/** Turns two-factor sign-in off: the password and a current app or recovery code. */
export async function disableTwoFactor(
  deps: Deps,
  who: AuditWho,
  ip: string,
  userId: number,
  body: { password: string; code: string },
): Promise<void> {
  const user = await confirmedUser(deps, userId, body.password, ip);
  if (!user.totpSecret) throw badRequest(TWO_FACTOR_NOT_ON);
  if (!(await spendCounted(deps, user, body.code))) throw codeError();
  await deps.db.transaction(async (tx) => {
    if (!(await disableTotp(tx, user.id))) return;
    await mailTwoFactorNotice(tx, deps.mailer, user, 'disabled');
    await recordAudit(tx, {
      ...who,
      action: 'user.two_factor_disabled',
      subject: { type: 'user', id: user.id },
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false },
    });
  });
}

/**
 * The second step of a login: the challenge of POST /login and an app or recovery code. Answers the
 * session token. The account's guess limit is counted first (429 even for the right code), then the
 * per-address limits; both before the code is checked, like a password.
 */
export async function completeSecondStep(
  deps: Deps,
  body: { mfaToken: string; code: string },
  ip: string,
): Promise<string> {
  const { mfaToken, code } = body;
  const challenge = await findChallenge(deps.db, mfaToken);
  const user = challenge ? await findUserById(deps.db, challenge.userId) : undefined;
  if (!challenge || !user?.isActive || !user.totpSecret) throw unauthorized(MFA_TOKEN_INVALID);
  const guess = await deps.loginThrottle.reserveSecondFactor(user.id);
  let kind: 'app' | 'recovery' | null;
  let attempt: Awaited<ReturnType<typeof deps.loginThrottle.reserve>>;
  try {
    attempt = await deps.loginThrottle.reserve(user.email, ip);
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
      ip,
    });
    throw unauthorized(TWO_FACTOR_CODE_INVALID);
  }
  await guess.succeeded();
  if (!(await endChallenge(deps.db, challenge.id))) throw unauthorized(MFA_TOKEN_INVALID);
  // A complete sign-in: from now on this address is one the account signs in from.
  await attempt.succeeded();
  if (kind === 'recovery') {
    const left = await unusedRecoveryCodes(deps.db, user.id);
    await deps.db.transaction((tx) => mailTwoFactorNotice(tx, deps.mailer, user, 'recoveryCodeUsed', left));
  }
  const token = await deps.tokens.sign(user);
  await recordAuditAlone(deps.db, {
    actor: user,
    action: 'auth.signed_in',
    subject: { type: 'user', id: user.id },
    after: { method: `password+${method}` },
    ip,
  });
  return token;
}
