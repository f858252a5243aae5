import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_TOO_GUESSABLE } from '../../../common/contracts/accounts';
import { call, createUser, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { StartupError } from '../../plugins/auth';
import { createAccountToken } from './account-tokens';
import { ensureFirstAdmin } from './first-admin';
import { isGuessablePassword } from './password-score';
import { isGuessablePasswordOffLoop, personalWords } from './password-strength';

// Common passwords and obvious variants are refused for every new password (docs/product/security.md):
// register, reset, change, and ADMIN_PASSWORD at start.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await t?.close();
});

const LAB = 'Heritage Valuation Laboratory';
const rosalind = { email: 'rosalind.finch@example.com', firstName: 'Rosalind', lastName: 'Finch' };
const refusedOn = (field: string) => ({
  message: PASSWORD_TOO_GUESSABLE,
  errors: [{ path: field, message: PASSWORD_TOO_GUESSABLE }],
});

describe('the password check', () => {
  it('refuses common passwords and variants of the person’s and the lab’s names; accepts good ones', () => {
    const words = personalWords(rosalind, LAB);
    for (const weak of ['password', 'Password123', 'iloveyou1', 'qwerty123', 'Laboratory2025'])
      expect(isGuessablePassword(weak, words), weak).toBe(true);
    // Guessable only because of whose it is: the person's names, the lab's name.
    expect(isGuessablePassword('rosalindfinch', [])).toBe(false);
    expect(isGuessablePassword('rosalindfinch', words)).toBe(true);
    expect(isGuessablePassword('heritagevaluation', [])).toBe(false);
    expect(isGuessablePassword('heritagevaluation', words)).toBe(true);
    for (const good of ['Bramble-Oxide-Lantern-7', 'correct-horse-battery', 'RosalindFinch1-Qx'])
      expect(isGuessablePassword(good, words), good).toBe(false);
  });
});

describe('the check runs in a worker thread', () => {
  it('answers as the check itself does, and leaves the event loop free while it scores', async () => {
    const words = personalWords(rosalind, LAB);
    for (const p of ['password', 'rosalindfinch', 'Bramble-Oxide-Lantern-7'])
      expect(await isGuessablePasswordOffLoop(p, words), p).toBe(isGuessablePassword(p, words));
    // Patterned passwords cost zxcvbn tens of milliseconds each: twenty of them scored on this thread
    // would hold it for a second or more. Scored in the worker, a 5 ms timer keeps its pace.
    const patterned = Array.from({ length: 20 }, (_, i) => `a1b2c3d4e5f6g7h8i9j0${i}q1w2e3r4t5y6u7i8o9p0`);
    let last = performance.now();
    let worstLag = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - last - 5);
      last = now;
    }, 5);
    try {
      const answers = await Promise.all(patterned.map((p) => isGuessablePasswordOffLoop(p, words)));
      expect(answers).toHaveLength(20);
    } finally {
      clearInterval(timer);
    }
    expect(worstLag).toBeLessThan(400);
  });
});

describe('new passwords are checked', () => {
  it('register: 400 beside the password field; nothing is created', async () => {
    for (const password of ['password', 'rosalindfinch', 'heritagevaluation']) {
      const res = await call(t, 'POST', '/api/register', { json: { ...rosalind, password } });
      expect(res.status, password).toBe(400);
      expect(res.body).toEqual(refusedOn('password'));
    }
    const ok = await call(t, 'POST', '/api/register', {
      json: { ...rosalind, password: 'Bramble-Oxide-Lantern-7' },
    });
    expect(ok.status).toBe(201);
  });

  it('password change: 400 on newPassword, the old password still works', async () => {
    const user = await createUser(t);
    const res = await call(t, 'PUT', '/api/users/password', {
      token: user.token,
      json: { currentPassword: user.password, newPassword: 'Password123' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusedOn('newPassword'));
    const login = await call(t, 'POST', '/login', { json: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
  });

  it('reset: 400 on password, and the link still works for a better one', async () => {
    const user = await createUser(t);
    const token = await createAccountToken(t.db, { userId: user.id, purpose: 'reset', ttlMs: 60_000 });
    const weak = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'iloveyou1' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual(refusedOn('password'));
    const good = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'Bramble-Oxide-Lantern-7' },
    });
    expect(good.status).toBe(200);
  });

  it('ADMIN_PASSWORD: a common one stops start-up with a clear message', async () => {
    await expect(ensureFirstAdmin(t.db, { email: 'boss@lab.test', password: 'password1' })).rejects.toThrow(
      StartupError,
    );
    await expect(ensureFirstAdmin(t.db, { email: 'boss@lab.test', password: 'Password123' })).rejects.toThrow(
      /ADMIN_PASSWORD is too common or too easy to guess/,
    );
    await expect(
      ensureFirstAdmin(t.db, { email: 'boss@lab.test', password: 'Bramble-Oxide-Lantern-7' }),
    ).resolves.toBeNull();
  });
});
