import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MFA_TOKEN_INVALID,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_SETUP_REQUIRED,
} from '../../../common/contracts/two-factor';
import { callOk } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { users } from '../../db/schema';
import { MAX_FAILURES_PER_ACCOUNT } from './login-throttle';
import { newTotpSecret, totpCode, totpStep } from './totp';
import { clearOfTotpStepEnd } from '../../../tests/support/totp';

// Two-factor sign-in (docs/product/accounts-and-sessions.md).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The app code of `secret` `offset` steps from now (the server accepts ±1). */
const codeAt = (secret: string, offset = 0) => totpCode(secret, totpStep(Date.now()) + offset);

/** Sets up and turns on two-factor sign-in for `user`; answers the key and the recovery codes. */
async function enrol(user: TestUser) {
  const setup = await callOk<{ secret: string; otpauthUrl: string; qrCode: string }>(
    t,
    'POST',
    '/api/auth/2fa/totp/setup',
    { token: user.token, json: { password: user.password } },
  );
  await clearOfTotpStepEnd();
  const enabled = await callOk<{ recoveryCodes: string[] }>(t, 'POST', '/api/auth/2fa/totp/enable', {
    token: user.token,
    json: { code: codeAt(setup.secret, -1), password: user.password },
  });
  return { ...setup, recoveryCodes: enabled.recoveryCodes };
}

const login = (user: TestUser, headers: Record<string, string> = {}) =>
  call(t, 'POST', '/login', { json: { email: user.email, password: user.password }, headers });
const verify = (mfaToken: string, code: string, headers: Record<string, string> = {}) =>
  call(t, 'POST', '/api/auth/2fa/verify', { json: { mfaToken, code }, headers });
async function mfaToken(user: TestUser, headers: Record<string, string> = {}) {
  const res = await login(user, headers);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ mfaRequired: true });
  expect(res.body).not.toHaveProperty('token');
  return (res.body as { mfaToken: string }).mfaToken;
}

describe('two-factor sign-in', () => {
  it('enrols with a QR code and a confirming code; recovery codes are shown once', async () => {
    const user = await createUser(t);
    const setup = await callOk<{ secret: string; otpauthUrl: string; qrCode: string }>(
      t,
      'POST',
      '/api/auth/2fa/totp/setup',
      { token: user.token, json: { password: user.password } },
    );
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
    expect(setup.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const wrong = await call(t, 'POST', '/api/auth/2fa/totp/enable', {
      token: user.token,
      json: { code: codeAt(setup.secret, 5), password: user.password },
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { message: string }).message).toBe(TWO_FACTOR_CODE_INVALID);
    const on = await call(t, 'POST', '/api/auth/2fa/totp/enable', {
      token: user.token,
      json: { code: codeAt(setup.secret), password: user.password },
    });
    expect(on.status).toBe(200);
    const codes = (on.body as { recoveryCodes: string[] }).recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const me = await callOk<{ twoFactorEnabled: boolean }>(t, 'GET', '/api/auth/user', { token: user.token });
    expect(me.twoFactorEnabled).toBe(true);
    expect(JSON.stringify(me)).not.toContain(setup.secret);
    expect(
      (
        await call(t, 'POST', '/api/auth/2fa/totp/setup', {
          token: user.token,
          json: { password: user.password },
        })
      ).status,
    ).toBe(409);
  });

  it('signs in with password then app code; the same code is refused the second time', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const code = codeAt(secret, 1);
    const first = await verify(await mfaToken(user), code);
    expect(first.status).toBe(200);
    const token = (first.body as { token: string }).token;
    expect((await call(t, 'GET', '/api/auth/user', { token })).status).toBe(200);
    const replay = await verify(await mfaToken(user), code);
    expect(replay.status).toBe(401);
    expect((replay.body as { message: string }).message).toBe(TWO_FACTOR_CODE_INVALID);
    // A pending token is no session token.
    expect((await call(t, 'GET', '/api/auth/user', { token: await mfaToken(user) })).status).toBe(401);
  });

  it('accepts each recovery code once, and only for its own account', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { recoveryCodes } = await enrol(user);
    await enrol(other);
    const recovery = recoveryCodes[3] ?? '';
    expect((await verify(await mfaToken(other), recovery)).status).toBe(401);
    const used = await verify(await mfaToken(user), ` ${recovery.toUpperCase()} `);
    expect(used.status).toBe(200);
    expect((await verify(await mfaToken(user), recovery)).status).toBe(401);
    expect((await verify(await mfaToken(user), recoveryCodes[4] ?? '')).status).toBe(200);
  });

  it('throttles the second step like a password, and a pending sign-in ends', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const from = { 'x-forwarded-for': '198.51.100.23' };
    const pending = await mfaToken(user, from);
    const wrong = codeAt(secret) === '000000' ? '111111' : '000000';
    const answers: number[] = [];
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
      answers.push((await verify(pending, wrong, from)).status);
    expect(answers).toEqual(Array(MAX_FAILURES_PER_ACCOUNT).fill(401));
    // After its wrong codes the pending sign-in is gone, even with the right code from elsewhere…
    const ended = await verify(pending, codeAt(secret, 1), { 'x-forwarded-for': '192.0.2.50' });
    expect(ended.status).toBe(401);
    expect((ended.body as { message: string }).message).toBe(MFA_TOKEN_INVALID);
    // …and the wrong codes counted as failed logins of the account from that address: locked there.
    expect((await login(user, from)).status).toBe(429);
    expect((await verify('not-a-token', codeAt(secret))).status).toBe(401);
  });

  it('turns off with the password and a code; then the password alone signs in', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    const off = (password: string, code: string) =>
      call(t, 'POST', '/api/auth/2fa/disable', { token: user.token, json: { password, code } });
    expect((await off('wrong-password-1', codeAt(secret, 1))).status).toBe(400);
    expect((await off(user.password, '123')).status).toBe(400);
    expect((await off(user.password, codeAt(secret, 1))).status).toBe(200);
    const res = await login(user);
    expect(res.body).toHaveProperty('token');
    const me = await callOk<{ twoFactorEnabled: boolean }>(t, 'GET', '/api/auth/user', { token: user.token });
    expect(me.twoFactorEnabled).toBe(false);
  });

  it('require2faForStaff holds staff and admins back until they enrol; customers are not affected', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const staff = await createUser(t, { role: 'staff' });
    const customer = await createUser(t);
    const form = new FormData();
    form.append('settings', JSON.stringify({ labName: 'Lab', require2faForStaff: true }));
    const saved = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ require2faForStaff: true });

    const blocked = await call(t, 'GET', '/api/staff/samples', { token: staff.token });
    expect(blocked.status).toBe(403);
    expect((blocked.body as { message: string }).message).toBe(TWO_FACTOR_SETUP_REQUIRED);
    expect((await call(t, 'GET', '/api/lab/settings', { token: admin.token })).status).toBe(403);
    const me = await callOk<{ twoFactorSetupRequired: boolean }>(t, 'GET', '/api/auth/user', {
      token: staff.token,
    });
    expect(me.twoFactorSetupRequired).toBe(true);
    expect((await call(t, 'GET', '/api/samples', { token: customer.token })).status).toBe(200);

    await enrol(staff);
    expect((await call(t, 'GET', '/api/staff/samples', { token: staff.token })).status).toBe(200);
    const after = await callOk<{ twoFactorSetupRequired: boolean }>(t, 'GET', '/api/auth/user', {
      token: staff.token,
    });
    expect(after.twoFactorSetupRequired).toBe(false);
    await enrol(admin);
    const settings = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ require2faForStaff: true });
  });

  it('keeps the authenticator key sealed in the database: never the base32 key in the clear', async () => {
    const user = await createUser(t);
    const stored = async () => {
      const [row] = await t.db
        .select({ secret: users.totpSecret, pending: users.totpPendingSecret })
        .from(users)
        .where(eq(users.id, user.id));
      return row;
    };
    const setup = await callOk<{ secret: string }>(t, 'POST', '/api/auth/2fa/totp/setup', {
      token: user.token,
      json: { password: user.password },
    });
    const pending = await stored();
    expect(pending?.pending).toMatch(/^v1\.[A-Za-z0-9_-]{80}$/);
    expect(pending?.pending).not.toContain(setup.secret);
    await callOk(t, 'POST', '/api/auth/2fa/totp/enable', {
      token: user.token,
      json: { code: codeAt(setup.secret), password: user.password },
    });
    const on = await stored();
    expect(on?.pending).toBeNull();
    expect(on?.secret).toMatch(/^v1\.[A-Za-z0-9_-]{80}$/);
    expect(on?.secret).not.toContain(setup.secret);
    // Copied into another account's row, the sealed key opens nowhere: that account's codes fail.
    const other = await createUser(t);
    await t.db
      .update(users)
      .set({ totpSecret: on?.secret, totpEnabledAt: new Date() })
      .where(eq(users.id, other.id));
    expect((await verify(await mfaToken(other), codeAt(setup.secret, 1))).status).toBe(500);
    expect((await verify(await mfaToken(user), codeAt(setup.secret, 1))).status).toBe(200);
  });

  it('seals at start-up a key stored in the clear by an earlier version, and it still signs in', async () => {
    const user = await createUser(t);
    const secret = newTotpSecret();
    await t.db
      .update(users)
      .set({ totpSecret: secret, totpEnabledAt: new Date() })
      .where(eq(users.id, user.id));
    // A second instance on the same database and DATA_DIR (so the same generated TOTP key) starts.
    const lines: string[] = [];
    const second = await buildApp({
      config: loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'info', JWT_SECRET: 'x'.repeat(40) }),
      database: t.database,
      storage: t.storage,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
      serveWeb: false,
      runJobs: false,
    });
    await second.close();
    const [row] = await t.db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, user.id));
    expect(row?.secret).toMatch(/^v1\./);
    expect(row?.secret).not.toContain(secret);
    expect(lines.some((l) => l.includes('two-factor keys encrypted at rest'))).toBe(true);
    expect((await verify(await mfaToken(user), codeAt(secret))).status).toBe(200);
  });

  it('with a changed TOTP_KEY, says so at start-up; app codes fail there, recovery codes still sign in', async () => {
    const user = await createUser(t);
    const { secret, recoveryCodes } = await enrol(user);
    const lines: string[] = [];
    const other = await buildApp({
      config: loadConfig({
        DATA_DIR: t.dataDir,
        LOG_LEVEL: 'info',
        JWT_SECRET: 'y'.repeat(40),
        TOTP_KEY: randomBytes(32).toString('hex'),
      }),
      database: t.database,
      storage: t.storage,
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
      serveWeb: false,
      runJobs: false,
    });
    try {
      expect(lines.some((l) => l.includes('cannot be opened with this TOTP_KEY'))).toBe(true);
      const login2 = async () => {
        const res = await other.inject({
          method: 'POST',
          url: '/login',
          payload: { email: user.email, password: user.password },
        });
        return (res.json() as { mfaToken: string }).mfaToken;
      };
      const step2 = (mfa: string, code: string) =>
        other.inject({ method: 'POST', url: '/api/auth/2fa/verify', payload: { mfaToken: mfa, code } });
      const app = await step2(await login2(), codeAt(secret, 1));
      expect(app.statusCode).toBe(500);
      expect(app.body).not.toContain(secret);
      expect((await step2(await login2(), recoveryCodes[0] ?? '')).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
