import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditAction } from '../../common/domain/audit';
import { element, insertSample, issueReport } from '../../tests/support/factories';
import { callOk } from '../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../tests/support/test-app';
import { auditEvents, contactInquiries, labSettings } from '../db/schema';
import { newTotpSecret, totpCode, totpStep } from '../modules/accounts/totp';
import { verifyAuditChain } from './verify-chain';
import { isSecretField } from './without-secrets';

// Every state change the audit trail covers writes its event, with the actor, the subject, the
// before and after values (never a secret) and the network prefix, on both databases
// (docs/product/audit-trail.md).

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let reviewer: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, reviewer, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user', firstName: 'Ada', lastName: 'Byron' }),
  ]);
});
afterAll(() => t?.close());

/** The newest event of an action (on one subject, when given). */
async function lastEvent(action: AuditAction, subjectId?: number | string) {
  const rows = await t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(desc(auditEvents.id))
    .limit(20);
  const row = subjectId === undefined ? rows[0] : rows.find((r) => r.subjectId === String(subjectId));
  if (!row) throw new Error(`no ${action} event${subjectId === undefined ? '' : ` for ${subjectId}`}`);
  return row;
}
const countOf = async (action: AuditAction) =>
  (await t.db.select().from(auditEvents).where(eq(auditEvents.action, action))).length;

/** The fields every event from a test request carries: the actor and the loopback's network prefix. */
const by = (user: TestUser) => ({ actorId: user.id, actorLabel: user.email, network: '127.0.0.0/24' });

/** No stored event may hold a secret anywhere in its values. */
function expectNoSecret(row: { before: unknown; after: unknown }, ...secrets: string[]) {
  const text = JSON.stringify([row.before, row.after]);
  for (const s of secrets) expect(text).not.toContain(s);
  const keys: string[] = [];
  JSON.stringify([row.before, row.after], (key, value: unknown) => {
    if (key) keys.push(key);
    return value;
  });
  expect(keys.filter(isSecretField)).toEqual([]);
}

describe('sign-ins', () => {
  it('records a sign-in, and a failed one with the address typed and why', async () => {
    const res = await call(t, 'POST', '/login', { json: { email: staff.email, password: staff.password } });
    expect(res.status).toBe(200);
    expect(await lastEvent('auth.signed_in', staff.id)).toMatchObject({
      ...by(staff),
      subjectType: 'user',
      before: null,
      after: { method: 'password' },
    });

    const wrong = await call(t, 'POST', '/login', {
      json: { email: staff.email, password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    const failed = await lastEvent('auth.sign_in_failed', staff.id);
    expect(failed).toMatchObject({
      actorId: null,
      actorLabel: staff.email,
      subjectType: 'user',
      after: { reason: 'wrong-password' },
      network: '127.0.0.0/24',
    });
    expectNoSecret(failed, 'not-the-password');

    const nobody = 'nobody-here@example.com';
    expect(
      (await call(t, 'POST', '/login', { json: { email: nobody, password: 'whatever-1' } })).status,
    ).toBe(401);
    const unknown = await lastEvent('auth.sign_in_failed');
    expect(unknown).toMatchObject({
      actorId: null,
      actorLabel: nobody,
      subjectId: null,
      after: { reason: 'unknown-account' },
    });
  });
});

describe('accounts', () => {
  it('records role and activation changes with the values before and after, and nothing for a no-op', async () => {
    const customer = await createUser(t, { role: 'user' });
    await callOk(t, 'POST', `/api/admin/users/${customer.id}/role`, {
      token: admin.token,
      json: { role: 'staff' },
    });
    const role = await lastEvent('user.role_changed', customer.id);
    expect(role).toMatchObject({
      ...by(admin),
      subjectType: 'user',
      before: { email: customer.email, role: 'user' },
      after: { email: customer.email, role: 'staff' },
    });
    expectNoSecret(role);
    const roles = await countOf('user.role_changed');
    await callOk(t, 'POST', `/api/admin/users/${customer.id}/role`, {
      token: admin.token,
      json: { role: 'staff' },
    });
    expect(await countOf('user.role_changed')).toBe(roles);

    await callOk(t, 'POST', `/api/admin/users/${customer.id}/active`, {
      token: admin.token,
      json: { isActive: false },
    });
    expect(await lastEvent('user.active_changed', customer.id)).toMatchObject({
      ...by(admin),
      before: { isActive: true },
      after: { isActive: false },
    });
  });

  it('records two-factor sign-in turned on and off, and both steps of a sign-in with it, never a key or code', async () => {
    const user = await createUser(t, { role: 'staff' });
    const setup = (await callOk(t, 'POST', '/api/auth/2fa/totp/setup', {
      token: user.token,
      json: { password: user.password },
    })) as {
      secret: string;
    };
    const code = totpCode(setup.secret, totpStep(Date.now()));
    const enabled = (await callOk(t, 'POST', '/api/auth/2fa/totp/enable', {
      token: user.token,
      json: { code, password: user.password },
    })) as {
      recoveryCodes: string[];
    };
    const on = await lastEvent('user.two_factor_enabled', user.id);
    expect(on).toMatchObject({
      ...by(user),
      before: { twoFactorEnabled: false },
      after: { twoFactorEnabled: true },
    });
    expectNoSecret(on, setup.secret, code, ...enabled.recoveryCodes);

    const login = (await callOk(t, 'POST', '/login', {
      json: { email: user.email, password: user.password },
    })) as {
      mfaToken: string;
    };
    // A code of another key: wrong for this account (a one-in-a-million match would fail loudly below).
    const badCode = totpCode(newTotpSecret(), totpStep(Date.now()));
    const bad = await call(t, 'POST', '/api/auth/2fa/verify', {
      json: { mfaToken: login.mfaToken, code: badCode },
    });
    expect(bad.status).toBe(401);
    expect(await lastEvent('auth.sign_in_failed', user.id)).toMatchObject({
      actorId: null,
      actorLabel: user.email,
      after: { reason: 'wrong-second-factor', method: 'totp' },
    });
    const [recovery, another] = enabled.recoveryCodes;
    await callOk(t, 'POST', '/api/auth/2fa/verify', { json: { mfaToken: login.mfaToken, code: recovery } });
    const signedIn = await lastEvent('auth.signed_in', user.id);
    expect(signedIn).toMatchObject({ ...by(user), after: { method: 'password+recovery-code' } });
    expectNoSecret(signedIn, login.mfaToken, String(recovery));

    await callOk(t, 'POST', '/api/auth/2fa/disable', {
      token: user.token,
      json: { password: user.password, code: another },
    });
    const off = await lastEvent('user.two_factor_disabled', user.id);
    expect(off).toMatchObject({
      ...by(user),
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false },
    });
    expectNoSecret(off, user.password, String(another));
  });
});

describe('the lab', () => {
  it('records the settings that changed, before and after, and nothing when none did', async () => {
    const save = (settings: Record<string, unknown>) => {
      const form = new FormData();
      form.append('settings', JSON.stringify(settings));
      return callOk(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    };
    await save({ labName: 'Audit Lab', phone: '+44 1 234' });
    await save({ labName: 'Audit Lab Ltd', phone: '+44 1 234' });
    const changed = await lastEvent('lab.settings_changed');
    expect(changed).toMatchObject({ ...by(admin), subjectType: 'lab_settings' });
    expect(changed.before).toEqual({ labName: 'Audit Lab' });
    expect(changed.after).toEqual({ labName: 'Audit Lab Ltd' });
    const count = await countOf('lab.settings_changed');
    await save({ labName: 'Audit Lab Ltd', phone: '+44 1 234' });
    expect(await countOf('lab.settings_changed')).toBe(count);
  });
});

describe('samples', () => {
  it('records an assignment and a status change with what they were before', async () => {
    const sample = await insertSample(t.db, owner, { status: 'submitted' });
    await callOk(t, 'POST', `/api/admin/samples/${sample.id}/assign`, {
      token: admin.token,
      json: { staffId: staff.id },
    });
    expect(await lastEvent('sample.assigned', sample.id)).toMatchObject({
      ...by(admin),
      subjectType: 'sample',
      before: { assignedStaffId: null },
      after: { assignedStaffId: staff.id },
    });
    await callOk(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'in-progress', comment: 'Unpacked' },
    });
    expect(await lastEvent('sample.status_changed', sample.id)).toMatchObject({
      ...by(staff),
      before: { status: 'submitted' },
      after: { status: 'in-progress', comment: 'Unpacked' },
    });
  });

  it('a status change refused half-way leaves neither the change nor its event', async () => {
    const sample = await insertSample(t.db, owner, { status: 'submitted', assignedStaffId: reviewer.id });
    const before = await countOf('sample.status_changed');
    // Not assigned to this staff member: refused inside the transaction, before any write.
    const res = await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'analysis' },
    });
    expect(res.status).toBe(403);
    expect(await countOf('sample.status_changed')).toBe(before);
  });
});

describe('reports', () => {
  const setReview = async (on: boolean) => {
    const [row] = await t.db.select().from(labSettings);
    if (row) await t.db.update(labSettings).set({ requireReview: on });
    else await t.db.insert(labSettings).values({ requireReview: on });
  };

  it('records issue and revoke, with the code, the revision and the reason', async () => {
    await setReview(false);
    const sample = await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id });
    const issued = await issueReport(t, sample.id, staff.token, [element('Silver', 92.5)]);
    expect(await lastEvent('report.issued', sample.id)).toMatchObject({
      ...by(staff),
      subjectType: 'sample',
      before: null,
      after: { reportCode: issued.reportCode, revision: 1, state: 'issued', pdfSha256: issued.sha256 },
    });
    await issueReport(t, sample.id, staff.token, [element('Silver', 90)]);
    expect(await lastEvent('report.issued', sample.id)).toMatchObject({
      before: { reportCode: issued.reportCode, revision: 1 },
      after: { reportCode: issued.reportCode, revision: 2 },
    });
    await callOk(t, 'POST', `/api/admin/reports/${issued.reportCode}/revoke`, {
      token: admin.token,
      json: { reason: 'Issued on the wrong item' },
    });
    expect(await lastEvent('report.revoked', sample.id)).toMatchObject({
      ...by(admin),
      before: { reportCode: issued.reportCode, revoked: false },
      after: { reportCode: issued.reportCode, revoked: true, reason: 'Issued on the wrong item' },
    });
  });

  it('records a revision sent for review, sent back, and approved', async () => {
    await setReview(true);
    try {
      const sample = await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id });
      const first = await issueReport(t, sample.id, staff.token);
      expect(await lastEvent('report.submitted_for_review', sample.id)).toMatchObject({
        ...by(staff),
        after: { reportCode: first.reportCode, revision: 1, state: 'awaiting-review' },
      });
      await callOk(t, 'POST', `/api/staff/samples/${sample.id}/report/reject`, {
        token: reviewer.token,
        json: { comment: 'Check the purity' },
      });
      expect(await lastEvent('report.rejected', sample.id)).toMatchObject({
        ...by(reviewer),
        before: { reportCode: first.reportCode, revision: 1, state: 'awaiting-review' },
        after: {
          reportCode: first.reportCode,
          revision: 1,
          state: 'returned',
          authorId: staff.id,
          comment: 'Check the purity',
        },
      });
      await issueReport(t, sample.id, staff.token);
      await callOk(t, 'POST', `/api/staff/samples/${sample.id}/report/approve`, { token: reviewer.token });
      expect(await lastEvent('report.approved', sample.id)).toMatchObject({
        ...by(reviewer),
        before: { state: 'awaiting-review' },
        after: { reportCode: first.reportCode, revision: 1, state: 'issued', authorId: staff.id },
      });
    } finally {
      await setReview(false);
    }
  });

  it('records share links made and revoked by the owner, never their token', async () => {
    const sample = await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id });
    await issueReport(t, sample.id, staff.token);
    const link = (await callOk(t, 'POST', `/api/samples/${sample.id}/share-links`, {
      token: owner.token,
      json: { expiresInDays: 30, label: 'Insurer' },
    })) as { id: number; token: string; expiresAt: string };
    const made = await lastEvent('share_link.created', sample.id);
    expect(made).toMatchObject({
      ...by(owner),
      before: null,
      after: { shareLinkId: link.id, label: 'Insurer', expiresAt: link.expiresAt },
    });
    expectNoSecret(made, link.token);
    await callOk(t, 'DELETE', `/api/samples/${sample.id}/share-links/${link.id}`, { token: owner.token });
    const revoked = await lastEvent('share_link.revoked', sample.id);
    expect(revoked).toMatchObject({
      ...by(owner),
      before: { revoked: false },
      after: { shareLinkId: link.id, revoked: true },
    });
    expectNoSecret(revoked, link.token);
    const count = await countOf('share_link.revoked');
    await callOk(t, 'DELETE', `/api/samples/${sample.id}/share-links/${link.id}`, { token: owner.token });
    expect(await countOf('share_link.revoked')).toBe(count);
  });
});

describe('quotes and payment', () => {
  const validUntil = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const quote = {
    lines: [{ description: 'Expert Valuation', amount: '120.00' }],
    currency: 'EUR',
    validUntil,
  };

  it('records a quote sent, replaced, withdrawn, declined, accepted and paid', async () => {
    const sample = await insertSample(t.db, owner, { assignedStaffId: staff.id, expertValuation: true });
    const sent = (await callOk(t, 'POST', `/api/staff/samples/${sample.id}/quote`, {
      token: staff.token,
      json: quote,
    })) as {
      id: number;
    };
    expect(await lastEvent('quote.sent', sample.id)).toMatchObject({
      ...by(staff),
      before: null,
      after: { quoteId: sent.id, status: 'sent', totalMinor: 12_000, currency: 'EUR', validUntil },
    });
    const again = (await callOk(t, 'POST', `/api/staff/samples/${sample.id}/quote`, {
      token: staff.token,
      json: quote,
    })) as {
      id: number;
    };
    expect(await lastEvent('quote.sent', sample.id)).toMatchObject({
      before: { quoteId: sent.id, status: 'sent' },
      after: { quoteId: again.id, replacedQuoteId: sent.id },
    });
    await callOk(t, 'POST', `/api/staff/samples/${sample.id}/quote/withdraw`, { token: staff.token });
    expect(await lastEvent('quote.withdrawn', sample.id)).toMatchObject({
      ...by(staff),
      before: { quoteId: again.id, status: 'sent' },
      after: { quoteId: again.id, status: 'withdrawn' },
    });
    const third = (await callOk(t, 'POST', `/api/staff/samples/${sample.id}/quote`, {
      token: staff.token,
      json: quote,
    })) as {
      id: number;
    };
    await callOk(t, 'POST', `/api/samples/${sample.id}/quote/decline`, {
      token: owner.token,
      json: { reason: 'Too dear' },
    });
    expect(await lastEvent('quote.declined', sample.id)).toMatchObject({
      ...by(owner),
      before: { quoteId: third.id, status: 'sent' },
      after: { quoteId: third.id, status: 'declined', declineReason: 'Too dear' },
    });
    const fourth = (await callOk(t, 'POST', `/api/staff/samples/${sample.id}/quote`, {
      token: staff.token,
      json: quote,
    })) as {
      id: number;
    };
    await callOk(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token });
    expect(await lastEvent('quote.accepted', sample.id)).toMatchObject({
      ...by(owner),
      before: { quoteId: fourth.id, status: 'sent' },
      after: { quoteId: fourth.id, status: 'accepted' },
    });
    await callOk(t, 'POST', `/api/admin/samples/${sample.id}/paid`, {
      token: admin.token,
      json: { reference: 'BANK-77' },
    });
    expect(await lastEvent('quote.paid', sample.id)).toMatchObject({
      ...by(admin),
      before: { quoteId: fourth.id, paid: false },
      after: {
        quoteId: fourth.id,
        paid: true,
        paidReference: 'BANK-77',
        totalMinor: 12_000,
        currency: 'EUR',
      },
    });
  });
});

describe('contact inquiries', () => {
  it('records a reply (with its text) and a status change', async () => {
    const [inquiry] = await t.db
      .insert(contactInquiries)
      .values({
        firstName: 'Eve',
        lastName: 'Q',
        email: 'eve@example.com',
        subject: 'general',
        message: 'Hello?',
      })
      .returning();
    if (!inquiry) throw new Error('no inquiry');
    await callOk(t, 'POST', `/api/admin/contact-inquiries/${inquiry.id}/status`, {
      token: admin.token,
      json: { status: 'pending' },
    });
    expect(await lastEvent('inquiry.status_changed', inquiry.id)).toMatchObject({
      ...by(admin),
      subjectType: 'inquiry',
      before: { status: 'new' },
      after: { status: 'pending' },
    });
    await callOk(t, 'POST', `/api/admin/contact-inquiries/${inquiry.id}/reply`, {
      token: admin.token,
      json: { message: 'Yes, we value clocks.' },
    });
    expect(await lastEvent('inquiry.replied', inquiry.id)).toMatchObject({
      ...by(admin),
      before: { status: 'pending', replyMessage: null },
      after: { status: 'responded', replyMessage: 'Yes, we value clocks.', to: 'eve@example.com' },
    });
  });
});

describe('the whole chain', () => {
  it('is valid after everything above', async () => {
    expect(await verifyAuditChain(t.db)).toMatchObject({ valid: true });
  });
});
