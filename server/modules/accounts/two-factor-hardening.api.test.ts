import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRONG_CURRENT_PASSWORD } from '../../../common/contracts/accounts';
import {
  MAX_TWO_FACTOR_GUESSES,
  PASSWORD_INCORRECT,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_GUESSES_EXCEEDED,
} from '../../../common/contracts/two-factor';
import { callOk } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { auditEvents, loginAttempts, mailOutbox } from '../../db/schema';
import { OWN_TWO_FACTOR_RESET } from '../users/reset-two-factor';
import { ACCOUNT_SLOWDOWN_AFTER, MAX_FAILURES_PER_ACCOUNT, SLOWED_MESSAGE } from './login-throttle';
import { totpCode, totpStep } from './totp';
import { clearOfTotpStepEnd } from '../../../tests/support/totp';

// The second round of account hardening (docs/product/accounts-and-sessions.md, docs/decisions/0020):
// a stolen session cannot plant or remove a second factor, current-password checks are throttled,
// second-step codes are limited per account across addresses, and the owner hears of every change.
// Rate limits are on; client addresses come through X-Forwarded-For from loopback (a trusted proxy).

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
/** A fresh client address for each call site (each its own /24, so no per-address limit is shared). */
const address = () => ({ 'x-forwarded-for': `198.19.${++n}.7` });
const codeAt = (secret: string, offset = 0) => totpCode(secret, totpStep(Date.now()) + offset);
const wrongCode = (secret: string) =>
  ['000000', '111111', '222222'].find((c) => ![-1, 0, 1].some((o) => codeAt(secret, o) === c)) ?? '333333';

async function enrol(user: TestUser, headers = address()) {
  const setup = await callOk<{ secret: string }>(t, 'POST', '/api/auth/2fa/totp/setup', {
    token: user.token,
    json: { password: user.password },
    headers,
  });
  await clearOfTotpStepEnd();
  const on = await callOk<{ recoveryCodes: string[] }>(t, 'POST', '/api/auth/2fa/totp/enable', {
    token: user.token,
    json: { code: codeAt(setup.secret, -1), password: user.password },
    headers,
  });
  return { secret: setup.secret, recoveryCodes: on.recoveryCodes };
}

const login = (user: TestUser, headers: Record<string, string>, password = user.password) =>
  call(t, 'POST', '/login', { json: { email: user.email, password }, headers });
async function pendingSignIn(user: TestUser, headers: Record<string, string>) {
  const res = await login(user, headers);
  expect(res.status).toBe(200);
  const mfaToken = (res.body as { mfaToken?: string }).mfaToken;
  expect(mfaToken).toBeTruthy();
  return mfaToken ?? '';
}
const verify = (mfaToken: string, code: string, headers: Record<string, string>) =>
  call(t, 'POST', '/api/auth/2fa/verify', { json: { mfaToken, code }, headers });

/** The subjects of the two-factor notices mailed to `email`, oldest first. */
async function notices(email: string) {
  const rows = await t.db
    .select({ subject: mailOutbox.subject })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'twoFactorChanged')))
    .orderBy(mailOutbox.id);
  return rows.map((r) => r.subject);
}

const messageOf = (res: { body: unknown }) => (res.body as { message?: string }).message;

describe('changing two-factor sign-in needs the current password, and the owner is told', () => {
  it('refuses enrolment without the password or with a wrong one; the owner is mailed when it is on', async () => {
    const user = await createUser(t);
    const from = address();
    const setup = (json: unknown) =>
      call(t, 'POST', '/api/auth/2fa/totp/setup', { token: user.token, json, headers: from });
    expect((await setup({})).status).toBe(400);
    expect(
      (await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: user.token, headers: from })).status,
    ).toBe(400);
    const wrong = await setup({ password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errors: [{ path: 'password', message: PASSWORD_INCORRECT }] });
    expect(await notices(user.email)).toEqual([]);

    const ok = await setup({ password: user.password });
    expect(ok.status).toBe(200);
    const secret = (ok.body as { secret: string }).secret;
    const enable = (json: unknown) =>
      call(t, 'POST', '/api/auth/2fa/totp/enable', { token: user.token, json, headers: from });
    expect((await enable({ code: codeAt(secret) })).status).toBe(400);
    expect((await enable({ code: codeAt(secret), password: 'not-my-password' })).status).toBe(400);
    const me = await callOk<{ twoFactorEnabled: boolean }>(t, 'GET', '/api/auth/user', { token: user.token });
    expect(me.twoFactorEnabled).toBe(false);
    expect((await enable({ code: codeAt(secret), password: user.password })).status).toBe(200);
    expect(await notices(user.email)).toEqual([
      expect.stringMatching(/^Two-factor sign-in was turned on for your .+ account$/),
    ]);
  });

  it('new recovery codes need the password; each has 80 random bits; the old ones stop; uses are mailed', async () => {
    const user = await createUser(t);
    const { recoveryCodes: old } = await enrol(user);
    const from = address();
    const renew = (json: unknown) =>
      call(t, 'POST', '/api/auth/2fa/recovery-codes', { token: user.token, json, headers: from });
    expect((await renew({})).status).toBe(400);
    expect((await renew({ password: 'not-my-password' })).status).toBe(400);
    const res = await renew({ password: user.password });
    expect(res.status).toBe(200);
    const codes = (res.body as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    // 16 base32 characters of 5 bits: 80 bits each.
    for (const code of [...codes, ...old]) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(new Set([...codes, ...old]).size).toBe(20);

    const k = address();
    expect((await verify(await pendingSignIn(user, k), old[0] ?? '', k)).status).toBe(401);
    expect((await verify(await pendingSignIn(user, k), codes[0] ?? '', k)).status).toBe(200);
    expect(await notices(user.email)).toEqual([
      expect.stringMatching(/turned on/),
      expect.stringMatching(/^New recovery codes were made for your .+ account$/),
      expect.stringMatching(/^A recovery code was used to sign in to your .+ account$/),
    ]);
    const [used] = await t.db
      .select({ text: mailOutbox.text })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, user.email), like(mailOutbox.subject, 'A recovery code%')));
    expect(used?.text).toContain('9 unused codes remain.');

    // Without two-factor sign-in there is nothing to renew.
    const plain = await createUser(t);
    const none = await call(t, 'POST', '/api/auth/2fa/recovery-codes', {
      token: plain.token,
      json: { password: plain.password },
      headers: address(),
    });
    expect(none.status).toBe(409);
  });

  it('turning it off is mailed to the owner', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const off = await call(t, 'POST', '/api/auth/2fa/disable', {
      token: user.token,
      json: { password: user.password, code: codeAt(secret, 1) },
      headers: address(),
    });
    expect(off.status).toBe(200);
    expect((await notices(user.email)).at(-1)).toMatch(
      /^Two-factor sign-in was turned off for your .+ account$/,
    );
  });
});

describe('current-password checks are throttled like logins', () => {
  it(`after ${MAX_FAILURES_PER_ACCOUNT} wrong current passwords from one address (password, e-mail, 2FA), even the right one is 429 there`, async () => {
    const user = await createUser(t);
    const from = address();
    const changePassword = (currentPassword: string) =>
      call(t, 'PUT', '/api/users/password', {
        token: user.token,
        json: { currentPassword, newPassword: 'a-brand-new-secret-42' },
        headers: from,
      });
    const changeEmail = (currentPassword: string) => {
      const form = new FormData();
      form.append(
        'profile',
        JSON.stringify({
          email: `moved-${user.email}`,
          firstName: user.firstName,
          lastName: user.lastName,
          currentPassword,
        }),
      );
      return call(t, 'PUT', '/api/users/profile', { token: user.token, form, headers: from });
    };
    const setUp = (password: string) =>
      call(t, 'POST', '/api/auth/2fa/totp/setup', { token: user.token, json: { password }, headers: from });

    const wrong = [
      await changePassword('wrong-password-1'),
      await changePassword('wrong-password-2'),
      await changeEmail('wrong-password-3'),
      await changeEmail('wrong-password-4'),
      await setUp('wrong-password-5'),
    ];
    expect(wrong.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(wrong[0]?.body).toMatchObject({
      errors: [{ path: 'currentPassword', message: WRONG_CURRENT_PASSWORD }],
    });
    expect((await changePassword(user.password)).status).toBe(429);
    expect((await changeEmail(user.password)).status).toBe(429);
    expect((await setUp(user.password)).status).toBe(429);
    // Nothing changed, and the owner still signs in from another network.
    expect((await login(user, address())).status).toBe(200);
  });
});

describe('the second factor cannot be guessed from many addresses', () => {
  it('the right password alone does not make an address known: it is slowed down with the account', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const known = address();
    expect((await verify(await pendingSignIn(user, known), codeAt(secret, 1), known)).status).toBe(200);
    const passwordOnly = address();
    await pendingSignIn(user, passwordOnly);
    // The account is attacked from everywhere: it slows down for every address but a known one.
    for (let i = 0; i < ACCOUNT_SLOWDOWN_AFTER; i++)
      expect((await login(user, address(), `wrong-password-${i}`)).status).toBe(401);
    const slowed = await login(user, passwordOnly);
    expect(slowed.status).toBe(429);
    expect(messageOf(slowed)).toBe(SLOWED_MESSAGE);
    expect((await login(user, known)).status).toBe(200);
  });

  it(`after ${MAX_TWO_FACTOR_GUESSES} wrong codes from ${MAX_TWO_FACTOR_GUESSES} addresses, 429 even for the right code until the window passes; the owner is mailed once`, async () => {
    const user = await createUser(t);
    const { secret, recoveryCodes } = await enrol(user);
    const known = address();
    expect((await verify(await pendingSignIn(user, known), codeAt(secret), known)).status).toBe(200);

    const bad = wrongCode(secret);
    for (let i = 0; i < MAX_TWO_FACTOR_GUESSES; i++) {
      const from = address();
      const res = await verify(await pendingSignIn(user, from), bad, from);
      expect(res.status).toBe(401);
      expect(messageOf(res)).toBe(TWO_FACTOR_CODE_INVALID);
    }
    const pending = await pendingSignIn(user, known);
    const right = await verify(pending, codeAt(secret, 1), known);
    expect(right.status).toBe(429);
    expect(messageOf(right)).toBe(TWO_FACTOR_GUESSES_EXCEEDED);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await verify(pending, recoveryCodes[0] ?? '', known)).status).toBe(429);
    const more = address();
    expect((await verify(await pendingSignIn(user, known), bad, more)).status).toBe(429);
    const alerts = (await notices(user.email)).filter((s) => s.startsWith('Many wrong sign-in codes'));
    expect(alerts).toHaveLength(1);

    // Fifteen minutes later (the counted guesses are moved back in time), the right code signs in.
    await t.db
      .update(loginAttempts)
      .set({ attemptedAt: sql`${loginAttempts.attemptedAt} - interval '16 minutes'` })
      .where(like(loginAttempts.key, `mfa%:${user.id}`));
    expect((await verify(pending, codeAt(secret, 1), known)).status).toBe(200);
  });

  it('wrong codes sent at once from many addresses: at most the limit are checked', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const bad = wrongCode(secret);
    // The pending sign-ins one after the other (logins at once would slow each other down), then
    // their codes all at once.
    const tries: { from: Record<string, string>; mfaToken: string }[] = [];
    for (let i = 0; i < MAX_TWO_FACTOR_GUESSES + 6; i++) {
      const from = address();
      tries.push({ from, mfaToken: await pendingSignIn(user, from) });
    }
    const answers = await Promise.all(tries.map((x) => verify(x.mfaToken, bad, x.from)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_TWO_FACTOR_GUESSES);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(6);
    const [counted] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(loginAttempts)
      .where(eq(loginAttempts.key, `mfa:${user.id}`));
    expect(Number(counted?.n)).toBeLessThanOrEqual(MAX_TWO_FACTOR_GUESSES);
  });
});

describe("an admin resets another account's two-factor sign-in", () => {
  it('turns it off, ends the recovery codes and mails the owner; never the admin’s own; 409 when off', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const staff = await createUser(t, { role: 'staff' });
    const user = await createUser(t);
    const { recoveryCodes } = await enrol(user);
    const reset = (id: number, token = admin.token) =>
      call(t, 'POST', `/api/admin/users/${id}/2fa/reset`, { token });
    expect((await reset(user.id, staff.token)).status).toBe(403);
    expect((await reset(user.id, user.token)).status).toBe(403);

    const listed = await callOk<{ id: number; twoFactorEnabled: boolean }[]>(
      t,
      'GET',
      '/api/admin/users?page=1&pageSize=100&search=' + encodeURIComponent(user.email),
      {
        token: admin.token,
      },
    );
    expect(listed.find((u) => u.id === user.id)?.twoFactorEnabled).toBe(true);
    const done = await reset(user.id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: user.id, email: user.email, twoFactorEnabled: false });
    expect((await notices(user.email)).at(-1)).toMatch(
      /^An administrator turned off two-factor sign-in for your .+ account$/,
    );
    // Audited in the same transaction: who, whose, before and after.
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'user.two_factor_reset'), eq(auditEvents.subjectId, String(user.id))),
      );
    expect(event).toMatchObject({
      actorId: admin.id,
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false },
    });
    const res = await login(user, address());
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('token');
    expect((await reset(user.id)).status).toBe(409);
    expect((await reset(999_999)).status).toBe(404);

    await enrol(admin);
    const own = await reset(admin.id);
    expect(own.status).toBe(403);
    expect(messageOf(own)).toBe(OWN_TWO_FACTOR_RESET);
    // The recovery codes of the reset account are gone.
    expect(recoveryCodes).toHaveLength(10);
    const again = await enrol(user);
    const k = address();
    expect((await verify(await pendingSignIn(user, k), recoveryCodes[0] ?? '', k)).status).toBe(401);
    expect((await verify(await pendingSignIn(user, k), again.recoveryCodes[0] ?? '', k)).status).toBe(200);
  });
});
