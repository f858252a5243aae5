import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { TOKEN_LIFETIME_SECONDS } from '../../plugins/auth';
import { call, createUser, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS, THROTTLED_MESSAGE } from './login-throttle';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let addressCounter = 0;
/** Each test logs in from its own address, so the per-address limit of one test cannot leak into another. */
const fromAddress = () => ({ 'x-forwarded-for': `203.0.113.${++addressCounter}` });

const register = (body: Record<string, unknown>, headers = fromAddress()) =>
  call(t, 'POST', '/api/register', { json: body, headers });
const login = (email: string, password: string, headers: Record<string, string> = fromAddress()) =>
  call(t, 'POST', '/login', { json: { email, password }, headers });

describe('POST /api/register', () => {
  it('creates a customer account: 201 with id, email, names and role user, never the password', async () => {
    const res = await register({
      email: '  New.Client@Example.com ',
      password: 'a-good-password',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      email: 'new.client@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'user',
    });
    expect(res.text).not.toContain('a-good-password');
    const [row] = await t.db.select().from(users).where(eq(users.email, 'new.client@example.com'));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain('a-good-password');
  });

  it('ignores a role sent by the client: registration always makes a customer', async () => {
    const res = await register({
      email: 'sneaky@example.com',
      password: 'a-good-password',
      firstName: 'S',
      lastName: 'N',
      role: 'admin',
    });
    expect(res.status).toBe(201);
    expect((res.body as { role: string }).role).toBe('user');
  });

  it.each([
    [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
    [{ password: 'short' }, 'password', 'Password must be at least 8 characters'],
    [{ password: 'sixsix7' }, 'password', 'Password must be at least 8 characters'],
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ lastName: '   ' }, 'lastName', 'Last name is required'],
  ])('refuses %o with 400 and the documented message', async (override, path, message) => {
    const res = await register({
      email: 'valid@example.com',
      password: 'a-good-password',
      firstName: 'Val',
      lastName: 'Id',
      ...override,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, errors: expect.arrayContaining([{ path, message }]) });
  });

  it('refuses a missing field and a wrong type with 400, never 500', async () => {
    const missing = await register({ email: 'x@example.com', password: 'a-good-password' });
    expect(missing.status).toBe(400);
    const wrongType = await register({
      email: 'x@example.com',
      password: 12345678,
      firstName: 'a',
      lastName: 'b',
    });
    expect(wrongType.status).toBe(400);
  });

  it('refuses a taken e-mail (in any letter case) with 409 and a clear message', async () => {
    const body = { email: 'twice@example.com', password: 'a-good-password', firstName: 'T', lastName: 'W' };
    expect((await register(body)).status).toBe(201);
    const again = await register({ ...body, email: 'TWICE@example.com' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'An account with this email already exists' });
  });

  it('lets exactly one of two racing registrations for one e-mail succeed', async () => {
    const body = { email: 'race@example.com', password: 'a-good-password', firstName: 'R', lastName: 'C' };
    const answers = await Promise.all([register(body), register(body), register(body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('POST /login', () => {
  it('answers 200 {token, message} with a 12-hour token, and the token opens /api/auth/user', async () => {
    const u = await createUser(t, { role: 'staff', firstName: 'Sam', lastName: 'Staff' });
    const res = await login(u.email, u.password);
    expect(res.status).toBe(200);
    const body = res.body as { token: string; message: string };
    expect(body).toEqual({ token: expect.any(String), message: 'Logged in successfully' });
    const claims = decodeJwt(body.token);
    expect(claims.exp).toBeDefined();
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(TOKEN_LIFETIME_SECONDS);
    expect(TOKEN_LIFETIME_SECONDS).toBe(12 * 60 * 60);
    const me = await call(t, 'GET', '/api/auth/user', { token: body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: u.id,
      email: u.email,
      phone: null,
      firstName: 'Sam',
      lastName: 'Staff',
      profileImageUrl: null,
      signature: null,
      qualifications: null,
      role: 'staff',
      emailVerified: false,
      notifyStatusChanges: true,
      twoFactorEnabled: false,
      twoFactorSetupRequired: false,
    });
  });

  it('accepts the e-mail in any letter case and with spaces around it', async () => {
    const u = await createUser(t);
    const res = await login(`  ${u.email.toUpperCase()} `, u.password);
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail with the same 401 text', async () => {
    const u = await createUser(t);
    const wrong = await login(u.email, 'not-the-password');
    const unknown = await login('nobody-here@example.com', u.password);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a deactivated account with 401: the right password learns why, a wrong one hears the usual text', async () => {
    const u = await createUser(t, { isActive: false });
    const res = await login(u.email, u.password);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      message:
        'This account has been deactivated. To have it reactivated, contact the lab at info@heritagevaluationlab.com or +1 (617) 555-0142.',
    });
    const wrong = await login(u.email, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
  });

  it.each([
    [{ email: 'bad', password: 'whatever-1' }, 'Invalid email address'],
    [{ email: 'ok@example.com', password: '12345' }, 'Password must be at least 6 characters'],
  ])('refuses %o with 400 and the documented message', async (json, message) => {
    const res = await call(t, 'POST', '/login', { json, headers: fromAddress() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message });
  });

  it(`locks one account at one address after ${MAX_FAILURES_PER_ACCOUNT} failures with 429, even with the right password; other addresses still sign in`, async () => {
    const u = await createUser(t);
    const address = fromAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++) {
      expect((await login(u.email, `wrong-password-${i}`, address)).status).toBe(401);
    }
    const blocked = await login(u.email, u.password, address);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: THROTTLED_MESSAGE });
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(THROTTLED_MESSAGE).not.toMatch(/email|password/i);
    // The letter case of the e-mail does not open a second counter.
    expect((await login(u.email.toUpperCase(), u.password, address)).status).toBe(429);
    // A stranger's failures never lock the owner out from their own network.
    expect((await login(u.email, u.password)).status).toBe(200);
    // Other accounts are not affected.
    const other = await createUser(t);
    expect((await login(other.email, other.password, address)).status).toBe(200);
  });

  it(`throttles one address after ${MAX_FAILURES_PER_ADDRESS} failures across accounts`, async () => {
    const address = fromAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect((await login(`spray-${i}@example.com`, 'wrong-password', address)).status).toBe(401);
    }
    const u = await createUser(t);
    const blocked = await login(u.email, u.password, address);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: THROTTLED_MESSAGE });
    // The same account from another address still logs in.
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('does not count successful logins as failures', async () => {
    const u = await createUser(t);
    const address = fromAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT - 1; i++) {
      expect((await login(u.email, 'wrong-password', address)).status).toBe(401);
    }
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT + 2; i++) {
      expect((await login(u.email, u.password, address)).status).toBe(200);
    }
  });

  it('never returns or stores the password in clear', async () => {
    const u = await createUser(t, { password: 'visible-secret-42' });
    const res = await login(u.email, u.password);
    expect(res.text).not.toContain('visible-secret-42');
    const me = await call(t, 'GET', '/api/auth/user', { token: (res.body as { token: string }).token });
    expect(me.text).not.toMatch(/visible-secret-42|argon2|password/i);
  });
});

describe('GET /api/auth/user and the token', () => {
  it('answers 401 without a token, with a malformed token and with a token signed by another key', async () => {
    expect((await call(t, 'GET', '/api/auth/user')).status).toBe(401);
    const garbage = await call(t, 'GET', '/api/auth/user', { token: 'not.a.jwt' });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ message: 'Invalid or expired token' });
    const u = await createUser(t);
    const [h, p] = u.token.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    expect((await call(t, 'GET', '/api/auth/user', { token: forged })).status).toBe(401);
  });

  it('answers 401 for an expired token', async () => {
    const u = await createUser(t);
    const expired = await t.app.deps.tokens.sign({ id: u.id, role: u.role }, -60);
    const res = await call(t, 'GET', '/api/auth/user', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid or expired token' });
  });

  it('refuses a deactivated user at once, with a token issued before', async () => {
    const u = await createUser(t);
    expect((await call(t, 'GET', '/api/auth/user', { token: u.token })).status).toBe(200);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, u.id));
    expect((await call(t, 'GET', '/api/auth/user', { token: u.token })).status).toBe(401);
  });

  it('uses the role in the database, not the one remembered in the token', async () => {
    const u = await createUser(t, { role: 'admin' });
    expect((await call(t, 'GET', '/api/admin/users', { token: u.token })).status).toBe(200);
    await t.db.update(users).set({ role: 'user' }).where(eq(users.id, u.id));
    const me = await call(t, 'GET', '/api/auth/user', { token: u.token });
    expect((me.body as { role: string }).role).toBe('user');
    expect((await call(t, 'GET', '/api/admin/users', { token: u.token })).status).toBe(403);
  });

  it('answers 401 for a token of a user who no longer exists', async () => {
    const ghost = await t.app.deps.tokens.sign({ id: 2_000_000, role: 'admin' });
    expect((await call(t, 'GET', '/api/auth/user', { token: ghost })).status).toBe(401);
  });
});
