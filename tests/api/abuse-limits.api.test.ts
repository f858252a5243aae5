import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../common/contracts/accounts';
import { FORGOT_RATE_LIMIT } from '../../server/modules/accounts/account-flows.routes';
import { REGISTER_RATE_LIMIT } from '../../server/modules/accounts/accounts.routes';
import {
  ACCOUNT_SLOWDOWN_AFTER,
  MAX_FAILURES_PER_ACCOUNT,
  SLOWED_MESSAGE,
  THROTTLED_MESSAGE,
} from '../../server/modules/accounts/login-throttle';
import { CONTACT_RATE_LIMIT } from '../../common/contracts/contact';
import { addressKey, networkPrefix } from '../../server/plugins/client-address';
import { call, createUser, startTestApp, type TestApp } from '../support/test-app';

// Abuse limits (docs/product/security.md): the login throttle under concurrency, per account AND
// address, IPv6 by /64, IPv4-mapped as IPv4, and the same address key for every per-address limit.
// Client addresses come through X-Forwarded-For from the test client on loopback, a trusted proxy.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const v4 = () => `198.18.${Math.floor(++n / 250)}.${(n % 250) + 1}`;
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const login = (email: string, password: string, ip: string) =>
  call(t, 'POST', '/login', { json: { email, password }, headers: from(ip) });

describe('the address key', () => {
  it('counts IPv6 by /64 and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe(addressKey('2001:db8:1:2:ffff::9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:DB8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey(undefined)).toBe('unknown');
    expect(networkPrefix('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkPrefix('2001:db8:1:2::5')).toBe('2001:db8:1::/48');
  });
});

describe('login throttling', () => {
  it(`50 wrong passwords for one account sent at once: at most ${MAX_FAILURES_PER_ACCOUNT} are checked (401), the rest 429`, async () => {
    const u = await createUser(t);
    const ip = v4();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(u.email, `wrong-password-${i}`, ip)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThan(0);
    // Afterwards the right password from that address is refused too…
    expect((await login(u.email, u.password, ip)).status).toBe(429);
    // …but not from the owner's own network.
    expect((await login(u.email, u.password, v4())).status).toBe(200);
  });

  it('a lock-out from network A does not stop the right password from network B', async () => {
    const u = await createUser(t);
    const a = v4();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
      expect((await login(u.email, 'wrong-password', a)).status).toBe(401);
    const locked = await login(u.email, u.password, a);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: THROTTLED_MESSAGE });
    expect((await login(u.email, u.password, v4())).status).toBe(200);
  });

  it('IPv6 addresses in one /64 share a counter; the next /64 does not', async () => {
    const u = await createUser(t);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
      expect((await login(u.email, 'wrong-password', `2001:db8:77:1::${i + 1}`)).status).toBe(401);
    expect((await login(u.email, u.password, '2001:db8:77:1:ffff:1:2:3')).status).toBe(429);
    expect((await login(u.email, u.password, '2001:db8:77:2::1')).status).toBe(200);
  });

  it('an IPv4-mapped address counts as its IPv4 address', async () => {
    const u = await createUser(t);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT; i++)
      expect((await login(u.email, 'wrong-password', '::ffff:198.19.5.5')).status).toBe(401);
    expect((await login(u.email, u.password, '198.19.5.5')).status).toBe(429);
  });

  it('the account as a whole only slows down: unknown networks wait, a known one signs in at once', async () => {
    const u = await createUser(t);
    const home = v4();
    expect((await login(u.email, u.password, home)).status).toBe(200);
    // Failures from several networks, each up to its own lock.
    const networks = Array.from({ length: Math.ceil(ACCOUNT_SLOWDOWN_AFTER / MAX_FAILURES_PER_ACCOUNT) }, v4);
    for (let i = 0; i < ACCOUNT_SLOWDOWN_AFTER; i++) {
      const ip = networks[Math.floor(i / MAX_FAILURES_PER_ACCOUNT)] ?? '';
      expect((await login(u.email, 'wrong-password', ip)).status).toBe(401);
    }
    const stranger = await login(u.email, u.password, v4());
    expect(stranger.status).toBe(429);
    expect(stranger.body).toEqual({ message: SLOWED_MESSAGE });
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner's own network is not slowed.
    expect((await login(u.email, u.password, home)).status).toBe(200);
  });

  it('a successful login does not leave a counted attempt behind', async () => {
    const u = await createUser(t);
    const ip = v4();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT * 2; i++)
      expect((await login(u.email, u.password, ip)).status).toBe(200);
  });
});

describe('per-address limits use the same key', () => {
  it(`registration: ${REGISTER_RATE_LIMIT.max} accounts per address, addresses of one /64 together`, async () => {
    const register = (i: number, ip: string) =>
      call(t, 'POST', '/api/register', {
        json: {
          email: `reg-limit-${i}@example.com`,
          password: 'long-enough-1',
          firstName: 'R',
          lastName: 'L',
        },
        headers: from(ip),
      });
    for (let i = 0; i < REGISTER_RATE_LIMIT.max; i++)
      expect((await register(i, `2001:db8:99:1::${i + 1}`)).status).toBe(201);
    const refused = await register(999, '2001:db8:99:1:abcd::1');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ message: expect.any(String) });
    expect((await register(1000, '2001:db8:99:2::1')).status).toBe(201);
  });

  it('contact: the IPv4-mapped and plain forms of one address share a counter', async () => {
    const send = (ip: string) =>
      call(t, 'POST', '/api/contact', {
        json: { firstName: 'A', lastName: 'B', email: 'a@example.com', subject: 'other', message: 'Hi' },
        headers: from(ip),
      });
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++)
      expect((await send(i % 2 ? '198.19.9.9' : '::ffff:198.19.9.9')).status).toBe(201);
    expect((await send('198.19.9.9')).status).toBe(429);
  });
});

describe('password-reset requests', () => {
  it(`${FORGOT_RATE_LIMIT.max} per address answer the usual 202, the next one 429; another address is not held up`, async () => {
    const ask = (email: string, ip: string) =>
      call(t, 'POST', '/api/auth/forgot-password', { json: { email }, headers: from(ip) });
    // Known and unknown addresses count alike, so the limit tells nobody which accounts exist.
    const known = await createUser(t, { role: 'user' });
    for (let i = 0; i < FORGOT_RATE_LIMIT.max; i++) {
      const res = await ask(i % 2 ? known.email : `nobody-${i}@example.com`, '198.51.100.77');
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    }
    for (const email of [known.email, 'nobody-else@example.com']) {
      const refused = await ask(email, '198.51.100.77');
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ message: expect.any(String) });
    }
    expect((await ask(known.email, '198.51.100.78')).status).toBe(202);
  });
});

describe('the password-hashing queue', () => {
  it('is bounded: a burst beyond it answers 503 with Retry-After, never a 500 or an endless wait', async () => {
    const small = await startTestApp({ PASSWORD_HASH_QUEUE: '1', RATE_LIMITS: 'off' });
    try {
      const u = await createUser(small);
      const answers = await Promise.all(
        Array.from({ length: 30 }, () =>
          call(small, 'POST', '/login', { json: { email: u.email, password: u.password } }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(statuses).toContain(200);
      const busy = answers.find((a) => a.status === 503);
      expect(busy?.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(busy?.body).toMatchObject({ message: expect.any(String) });
    } finally {
      await small.close();
    }
  });
});
