import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../../common/contracts/accounts';
import { accountTokens, contactInquiries, jobs, users } from '../../db/schema';
import { PASSWORD_RESET_QUEUE } from './password-reset.job';
import { startTestSmtp, type TestSmtp } from '../../../tests/support/smtp';
import { call, createUser, startTestApp, type TestApp } from '../../../tests/support/test-app';

// Password reset, confirmation, password and e-mail change, sessions that end
// (docs/product/accounts-and-sessions.md), with the mails received by a real SMTP server.

let smtp: TestSmtp;
let t: TestApp;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url, RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const tokenOf = (link: string | undefined) => new URL(link ?? 'http://x').searchParams.get('token') ?? '';
const me = (token: string) => call(t, 'GET', '/api/auth/user', { token });
const login = (email: string, password: string) => call(t, 'POST', '/login', { json: { email, password } });

describe('password reset', () => {
  it('mails a single-use link; the new password works, every old session ends', async () => {
    const user = await createUser(t);
    const second = (await login(user.email, user.password)).body as { token: string };
    const asked = await call(t, 'POST', '/api/auth/forgot-password', { json: { email: user.email } });
    const unknown = await call(t, 'POST', '/api/auth/forgot-password', {
      json: { email: 'nobody@example.com' },
    });
    expect(asked.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(asked.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    expect(unknown.body).toEqual(asked.body);
    const [mail] = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Reset your'));
    const link = mail?.links.find((l) => l.startsWith('http://lab.test/reset-password?token='));
    const token = tokenOf(link);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    // Only the hash is stored.
    const stored = await t.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(stored.every((r) => r.tokenHash !== token && r.tokenHash.length === 64)).toBe(true);

    const short = await call(t, 'POST', '/api/auth/reset-password', { json: { token, password: 'short' } });
    expect(short.status).toBe(400);
    const reset = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'brand-new-pass' },
    });
    expect(reset.status).toBe(200);
    expect((await me(user.token)).status).toBe(401);
    expect((await me(second.token)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, 'brand-new-pass')).status).toBe(200);
    const again = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'third-pass-123' },
    });
    expect(again.status).toBe(400);
    await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.endsWith('password was changed'));
    expect(smtp.to('nobody@example.com')).toHaveLength(0);
  });

  it('does the same work for an unknown address as for an account: one queued job, nothing else before answering', async () => {
    const user = await createUser(t);
    const queued = async () =>
      (await t.db.select().from(jobs).where(eq(jobs.queue, PASSWORD_RESET_QUEUE))).map(
        (j) => (j.payload as { email: string }).email,
      );
    const tokensBefore = (await t.db.select().from(accountTokens)).length;
    const unknown = await call(t, 'POST', '/api/auth/forgot-password', {
      json: { email: 'no-such-account@example.com' },
    });
    const known = await call(t, 'POST', '/api/auth/forgot-password', { json: { email: user.email } });
    expect(unknown.status).toBe(202);
    expect(known.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const emails = await queued();
    expect(emails.filter((e) => e === 'no-such-account@example.com')).toHaveLength(1);
    expect(emails.filter((e) => e === user.email)).toHaveLength(1);
    // The account's link is made by the job, after the answer; the unknown address gets nothing.
    await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Reset your'));
    expect((await t.db.select().from(accountTokens)).length).toBe(tokensBefore + 1);
    expect(smtp.to('no-such-account@example.com')).toHaveLength(0);
  });

  it('a wrong or expired token is 400 and changes nothing', async () => {
    const user = await createUser(t);
    await call(t, 'POST', '/api/auth/forgot-password', { json: { email: user.email } });
    const [mail] = await smtp.waitFor((m) => m.to.includes(user.email));
    const token = tokenOf(mail?.links.find((l) => l.includes('/reset-password')));
    const wrong = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token: `${token.slice(0, -2)}xx`, password: 'brand-new-pass' },
    });
    expect(wrong.status).toBe(400);
    await t.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.userId, user.id));
    const expired = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'brand-new-pass' },
    });
    expect(expired.status).toBe(400);
    expect((await me(user.token)).status).toBe(200);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('is throttled per account: at most 3 links an hour, the answer unchanged', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 5; i++) {
      const res = await call(t, 'POST', '/api/auth/forgot-password', { json: { email: user.email } });
      expect(res.status).toBe(202);
    }
    await smtp.waitFor((m) => m.to.includes(user.email), { count: 3 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.to(user.email)).toHaveLength(3);
  });
});

describe('e-mail confirmation', () => {
  it('the welcome link confirms the address; resend sends a new one while unconfirmed', async () => {
    const email = `confirm-${Date.now()}@example.com`;
    await call(t, 'POST', '/api/register', {
      json: { email, password: 'long-enough-pw', firstName: 'C', lastName: 'F' },
    });
    const [welcome] = await smtp.waitFor((m) => m.to.includes(email));
    const session = (await login(email, 'long-enough-pw')).body as { token: string };
    expect((await me(session.token)).body).toMatchObject({ emailVerified: false, notifyStatusChanges: true });
    const resend = await call(t, 'POST', '/api/auth/verify-email/resend', { token: session.token });
    expect(resend.status).toBe(202);
    await smtp.waitFor((m) => m.to.includes(email), { count: 2 });
    const token = tokenOf(welcome?.links.find((l) => l.includes('/verify-email')));
    expect(
      (await call(t, 'POST', '/api/auth/verify-email', { json: { token: 'nonsense-token-value-123' } }))
        .status,
    ).toBe(400);
    expect((await call(t, 'POST', '/api/auth/verify-email', { json: { token } })).status).toBe(200);
    expect((await me(session.token)).body).toMatchObject({ emailVerified: true });
    expect((await call(t, 'POST', '/api/auth/verify-email', { json: { token } })).status).toBe(400);
  });
});

describe('password and e-mail change', () => {
  it('password change needs the current password, keeps this browser signed in and ends the others', async () => {
    const user = await createUser(t);
    const other = (await login(user.email, user.password)).body as { token: string };
    const wrong = await call(t, 'PUT', '/api/users/password', {
      token: user.token,
      json: { currentPassword: 'nope-nope', newPassword: 'changed-pass-1' },
    });
    expect(wrong.status).toBe(400);
    const ok = await call(t, 'PUT', '/api/users/password', {
      token: user.token,
      json: { currentPassword: user.password, newPassword: 'changed-pass-1' },
    });
    expect(ok.status).toBe(200);
    const fresh = (ok.body as { token: string }).token;
    expect((await me(fresh)).status).toBe(200);
    expect((await me(user.token)).status).toBe(401);
    expect((await me(other.token)).status).toBe(401);
    const [notice] = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject.endsWith('password was changed'),
    );
    expect(notice?.text).toContain('every other session was signed out');
  });

  it('a new e-mail needs the current password; the old address is told', async () => {
    const user = await createUser(t);
    const newEmail = `moved-${Date.now()}@example.com`;
    const put = (profile: object) => {
      const form = new FormData();
      form.append('profile', JSON.stringify(profile));
      return call(t, 'PUT', '/api/users/profile', { token: user.token, form });
    };
    expect((await put({ email: newEmail })).status).toBe(400);
    expect((await put({ email: newEmail, currentPassword: 'wrong-password' })).status).toBe(400);
    expect((await put({ email: user.email, firstName: 'Same' })).status).toBe(200);
    const ok = await put({ email: newEmail, currentPassword: user.password });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email: newEmail, emailVerified: false });
    const [notice] = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject.includes('e-mail address'),
    );
    expect(notice?.text).toContain(newEmail);
    await smtp.waitFor((m) => m.to.includes(newEmail) && m.subject.startsWith('Confirm'));
  });
});

describe('sessions', () => {
  it('logout ends this token at once and only it; logout-all ends every token', async () => {
    const user = await createUser(t);
    const a = (await login(user.email, user.password)).body as { token: string };
    const b = (await login(user.email, user.password)).body as { token: string };
    expect((await call(t, 'POST', '/api/auth/logout', { token: a.token })).status).toBe(204);
    expect((await me(a.token)).status).toBe(401);
    expect((await me(b.token)).status).toBe(200);
    expect((await call(t, 'POST', '/api/auth/logout-all', { token: b.token })).status).toBe(204);
    expect((await me(b.token)).status).toBe(401);
    expect((await me(user.token)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('deactivation stops tokens and login at once; reactivation allows login; the last active admin stays', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const user = await createUser(t);
    const off = await call(t, 'POST', `/api/admin/users/${user.id}/active`, {
      token: admin.token,
      json: { isActive: false },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: user.id, isActive: false });
    expect((await me(user.token)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(401);
    const on = await call(t, 'POST', `/api/admin/users/${user.id}/active`, {
      token: admin.token,
      json: { isActive: true },
    });
    expect(on.status).toBe(200);
    // The old token stays dead; a new login works.
    expect((await me(user.token)).status).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(200);

    // Every other admin deactivated: the last one cannot go.
    const admins = await t.db.select().from(users).where(eq(users.role, 'admin'));
    for (const a of admins)
      if (a.id !== admin.id) await t.db.update(users).set({ isActive: false }).where(eq(users.id, a.id));
    const last = await call(t, 'POST', `/api/admin/users/${admin.id}/active`, {
      token: admin.token,
      json: { isActive: false },
    });
    expect(last.status).toBe(409);
    expect((await me(admin.token)).status).toBe(200);
  });
});

describe('inquiry reply', () => {
  it('stores the reply, mails it to the sender, and marks the inquiry responded', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const [inquiry] = await t.db
      .insert(contactInquiries)
      .values({
        firstName: 'Rita',
        lastName: 'Q',
        email: 'rita@example.com',
        subject: 'valuation-quote',
        message: 'How much for a clock?',
      })
      .returning();
    const empty = await call(t, 'POST', `/api/admin/contact-inquiries/${inquiry?.id}/reply`, {
      token: admin.token,
      json: { message: '   ' },
    });
    expect(empty.status).toBe(400);
    const res = await call(t, 'POST', `/api/admin/contact-inquiries/${inquiry?.id}/reply`, {
      token: admin.token,
      json: { message: 'About 150 EUR.' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'responded', replyMessage: 'About 150 EUR.' });
    const [mail] = await smtp.waitFor((m) => m.to.includes('rita@example.com'));
    expect(mail?.subject).toBe('Re: Valuation Quote');
    expect(mail?.text).toContain('About 150 EUR.');
    expect(mail?.text).toContain('How much for a clock?');
    expect(
      (
        await call(t, 'POST', '/api/admin/contact-inquiries/999999/reply', {
          token: admin.token,
          json: { message: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});
