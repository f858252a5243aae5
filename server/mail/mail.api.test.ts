import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createAccountToken, RESET_TOKEN_MINUTES } from '../modules/accounts/account-tokens';
import { jobs, labSettings, mailOutbox, samples, users } from '../db/schema';
import { startTestSmtp, type TestSmtp } from '../../tests/support/smtp';
import {
  call,
  createUser,
  secondInstance,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../../tests/support/test-app';

// Every mail of docs/product/mail.md, delivered to a real SMTP server in this process.

const JPEG = readFileSync(join(import.meta.dirname, '../../tests/fixtures/photo.jpg'));

let smtp: TestSmtp;
let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ SMTP_URL: smtp.url, JOBS_RETRY_FIRST_SECONDS: '0.2' });
  [admin, staff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Eleanor' }),
    createUser(t, { role: 'user', firstName: 'Olivia' }),
  ]);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function insertSample(values: Partial<typeof samples.$inferInsert> = {}) {
  const [row] = await t.db
    .insert(samples)
    .values({
      userId: customer.id,
      submitterName: 'Olivia Tester',
      submitterEmail: customer.email,
      itemName: 'Georgian Silver Teapot',
      category: 'furniture-decorative',
      description: 'Sterling silver teapot.',
      status: 'submitted',
      assignedStaffId: staff.id,
      ...values,
    })
    .returning();
  if (!row) throw new Error('no sample');
  return row;
}

const displayId = (id: number) => `VAL-${String(id).padStart(4, '0')}`;

/** Everything after the app's public URL in a link of the mail. */
const pathOf = (link: string) => link.replace('http://lab.test', '');

describe('mails of the lab events', () => {
  it('registration: a welcome mail with a confirmation link on PUBLIC_URL', async () => {
    const email = `new-${Date.now()}@example.com`;
    const res = await call(t, 'POST', '/api/register', {
      json: { email, password: 'long-enough-pw', firstName: 'Nora', lastName: 'New' },
    });
    expect(res.status).toBe(201);
    const [mail] = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail?.subject).toMatch(/^Welcome to .+: please confirm your e-mail address$/);
    expect(mail?.text).toContain('Hello Nora,');
    expect(
      mail?.links.some((l) => /^http:\/\/lab\.test\/verify-email\?token=[A-Za-z0-9_-]{40,}$/.test(l)),
    ).toBe(true);
    expect(mail?.html).toContain('href="http://lab.test/verify-email?token=');
    expect(mail?.from).toContain('no-reply@lab.test');
    // Not a notification: no unsubscribe header.
    expect(mail?.headers.get('list-unsubscribe')).toBeUndefined();
  });

  it('sample submitted: a receipt with the display id, stored by the same statement as the sample', async () => {
    const form = new FormData();
    const fields: Record<string, string> = {
      submitterName: 'Olivia Tester',
      submitterEmail: customer.email,
      submitterCountry: 'united-kingdom',
      isPersonalSubmission: 'true',
      itemName: 'Receipt Test Clock',
      category: 'furniture-decorative',
      description: 'A bracket clock.',
      expertValuation: 'true',
      urgencyLevel: 'standard',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('photos', new Blob([new Uint8Array(JPEG)], { type: 'image/jpeg' }), 'clock.jpg');
    // The receipt is rendered with the lab's current settings (read in the round trip that draws the id).
    const [settings] = await t.db.select().from(labSettings).limit(1);
    if (settings) await t.db.update(labSettings).set({ labName: 'Receipt Test Laboratory' });
    else await t.db.insert(labSettings).values({ labName: 'Receipt Test Laboratory' });
    const res = await call(t, 'POST', '/api/samples', { token: customer.token, form });
    await t.db.update(labSettings).set({ labName: settings?.labName ?? null });
    expect(res.status).toBe(201);
    const id = (res.body as { id: number }).id;
    const [mail] = await smtp.waitFor((m) => m.subject.includes(displayId(id)));
    expect(mail?.to).toEqual([customer.email]);
    expect(mail?.subject).toBe(`We received your sample ${displayId(id)}: Receipt Test Clock`);
    expect(mail?.text).toContain('What happens next');
    expect(mail?.html).toContain('Receipt Test Laboratory');
    expect(mail?.links).toContain(`http://lab.test/sample/${id}?from=mail`);
  });

  it('status changed: one mail with the status in words, a working sample link and List-Unsubscribe', async () => {
    const sample = await insertSample();
    const res = await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'analysis', comment: 'Started the assay.' },
    });
    expect(res.status).toBe(200);
    const [mail] = await smtp.waitFor((m) => m.subject.startsWith(displayId(sample.id)));
    expect(mail?.to).toEqual([customer.email]);
    expect(mail?.subject).toBe(`${displayId(sample.id)} is now "Analysis"`);
    expect(mail?.text).toContain('Started the assay.');
    const sampleLink = mail?.links.find((l) => l.includes('/sample/'));
    expect(sampleLink).toBe(`http://lab.test/sample/${sample.id}?from=mail`);
    // The link's page belongs to the customer: the API answers them for that id.
    const detail = await call(
      t,
      'GET',
      `/api/samples/${pathOf(sampleLink ?? '')
        .split('/')
        .pop()}`,
      {
        token: customer.token,
      },
    );
    expect(detail.status).toBe(200);
    const unsubscribe = String(mail?.headers.get('list-unsubscribe'));
    expect(unsubscribe).toMatch(
      /^<http:\/\/lab\.test\/api\/mail\/unsubscribe\?token=\d+\.[A-Za-z0-9_-]{32}>$/,
    );
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Exactly one mail for the event, even after the worker has polled again.
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.mails.filter((m) => m.subject.startsWith(displayId(sample.id)))).toHaveLength(1);
  });

  it('status unchanged, refused (403) or turned off: no mail', async () => {
    const sample = await insertSample({ status: 'analysis' });
    const other = await createUser(t, { role: 'staff' });
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
          token: other.token,
          json: { status: 'review' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
          token: staff.token,
          json: { status: 'analysis' },
        })
      ).status,
    ).toBe(200);
    const quiet = await createUser(t, { role: 'user' });
    await t.db.update(users).set({ notifyStatusChanges: false }).where(eq(users.id, quiet.id));
    const quietSample = await insertSample({ userId: quiet.id });
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${quietSample.id}/status`, {
          token: staff.token,
          json: { status: 'review' },
        })
      ).status,
    ).toBe(200);
    // A later mail proves the worker has run past these events.
    const marker = await insertSample();
    await call(t, 'POST', `/api/staff/samples/${marker.id}/status`, {
      token: staff.token,
      json: { status: 'review' },
    });
    await smtp.waitFor((m) => m.subject.startsWith(displayId(marker.id)));
    expect(smtp.mails.filter((m) => m.subject.startsWith(displayId(sample.id)))).toHaveLength(0);
    expect(smtp.to(quiet.email)).toHaveLength(0);
    const stored = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, quiet.email));
    expect(stored).toHaveLength(0);
  });

  it('a rolled-back change queues nothing', async () => {
    const before = (await t.db.select({ id: mailOutbox.id }).from(mailOutbox)).length;
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.deps.mailer.queue(tx, 'ghost@example.com', 'contactAck', { subject: 'Boo' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await t.db.select({ id: mailOutbox.id }).from(mailOutbox)).length).toBe(before);
    // A second registration of one e-mail is refused: one account, one welcome mail.
    const email = `twice-${Date.now()}@example.com`;
    const body = { email, password: 'long-enough-pw', firstName: 'Twice', lastName: 'T' };
    const answers = await Promise.all([
      call(t, 'POST', '/api/register', { json: body }),
      call(t, 'POST', '/api/register', { json: body }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    await smtp.waitFor((m) => m.to.includes(email));
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.to(email)).toHaveLength(1);
    expect(smtp.to('ghost@example.com')).toHaveLength(0);
  });

  it('sample assigned: a link for the staff member', async () => {
    const sample = await insertSample({ assignedStaffId: null, itemName: 'Assigned Vase' });
    const res = await call(t, 'POST', `/api/admin/samples/${sample.id}/assign`, {
      token: admin.token,
      json: { staffId: staff.id },
    });
    expect(res.status).toBe(200);
    const [mail] = await smtp.waitFor(
      (m) => m.subject === `Assigned to you: ${displayId(sample.id)} Assigned Vase`,
    );
    expect(mail?.to).toEqual([staff.email]);
    expect(mail?.links).toContain(`http://lab.test/sample/${sample.id}?from=mail`);
  });

  it('report issued, re-issued and withdrawn: code, revision, verify link, reason', async () => {
    const sample = await insertSample({ status: 'review', itemName: 'Report Bowl' });
    const elements = [{ element: 'Silver', percentage: 92.5 }];
    const first = await call(t, 'POST', `/api/staff/samples/${sample.id}/report`, {
      token: staff.token,
      json: { elements },
    });
    expect(first.status).toBe(200);
    const code = (first.body as { reportCode: string }).reportCode;
    const [issued] = await smtp.waitFor((m) => m.subject === `Your report ${code} is ready`);
    expect(issued?.to).toEqual([customer.email]);
    expect(issued?.text).toContain('revision 1');
    expect(issued?.links).toContain(`http://lab.test/verify-report?code=${code}`);
    expect(issued?.links).toContain(`http://lab.test/sample/${sample.id}?from=mail`);
    const verify = await call(t, 'GET', `/api/reports/verify/${code}`);
    expect(verify.status).toBe(200);

    const second = await call(t, 'POST', `/api/staff/samples/${sample.id}/report`, {
      token: staff.token,
      json: { elements },
    });
    expect(second.status).toBe(200);
    await smtp.waitFor((m) => m.subject === `Your report ${code} was re-issued (revision 2)`);

    const revoke = await call(t, 'POST', `/api/admin/reports/${code}/revoke`, {
      token: admin.token,
      json: { reason: 'Wrong alloy measured.' },
    });
    expect(revoke.status).toBe(200);
    const [withdrawn] = await smtp.waitFor((m) => m.subject === `Your report ${code} was withdrawn`);
    expect(withdrawn?.text).toContain('Wrong alloy measured.');
  });

  it('second review: the author hears of a send-back (with the comment) and of the approval', async () => {
    const reviewer = await createUser(t, { role: 'staff', firstName: 'Rita', lastName: 'Reviewer' });
    const [settings] = await t.db.select({ id: labSettings.id }).from(labSettings).limit(1);
    if (settings) await t.db.update(labSettings).set({ requireReview: true });
    else await t.db.insert(labSettings).values({ requireReview: true });
    try {
      const sample = await insertSample({ status: 'analysis', itemName: 'Reviewed Ewer' });
      const issue = () =>
        call(t, 'POST', `/api/staff/samples/${sample.id}/report`, {
          token: staff.token,
          json: { elements: [{ element: 'Silver', percentage: 92.5 }] },
        });
      const decide = (action: 'approve' | 'reject', json?: unknown) =>
        call(t, 'POST', `/api/staff/samples/${sample.id}/report/${action}`, { token: reviewer.token, json });
      const first = await issue();
      const code = (first.body as { reportCode: string }).reportCode;
      expect((await decide('reject', { comment: 'Please state the purity.\nAnd the maker.' })).status).toBe(
        200,
      );
      const [back] = await smtp.waitFor(
        (m) => m.subject === `Sent back: your report for ${displayId(sample.id)} Reviewed Ewer`,
      );
      expect(back?.to).toEqual([staff.email]);
      expect(back?.text).toContain(`Rita Reviewer reviewed your report ${code} (revision 1)`);
      expect(back?.text).toContain('> Please state the purity.\n> And the maker.');
      expect(back?.html).toContain('Please state the purity.<br>And the maker.');
      expect(back?.links).toContain(`http://lab.test/sample/${sample.id}?from=mail`);

      await issue();
      expect((await decide('approve')).status).toBe(200);
      const [approved] = await smtp.waitFor(
        (m) => m.subject === `Approved: report ${code} for ${displayId(sample.id)} is now issued`,
      );
      expect(approved?.to).toEqual([staff.email]);
      expect(approved?.text).toContain('Rita Reviewer reviewed your report');
      expect(approved?.text).not.toContain('Please state the purity');
      // The customer hears of the report once, when it is approved; the reviewer gets nothing.
      await smtp.waitFor((m) => m.subject === `Your report ${code} is ready`);
      expect(smtp.to(reviewer.email)).toHaveLength(0);
    } finally {
      await t.db.update(labSettings).set({ requireReview: false });
    }
  });

  it('contact message: an acknowledgement to the sender', async () => {
    const res = await call(t, 'POST', '/api/contact', {
      json: {
        firstName: 'Carla',
        lastName: 'Contact',
        email: 'carla@example.com',
        subject: 'general-inquiry',
        message: 'When are you open?',
      },
    });
    expect(res.status).toBe(201);
    const [mail] = await smtp.waitFor((m) => m.to.includes('carla@example.com'));
    expect(mail?.subject).toBe('We received your message: General Inquiry');
    // The sender's own words are not mailed back to whatever address was typed.
    expect(mail?.text).toContain('We read every message');
    expect(`${mail?.text}${mail?.html}`).not.toContain('When are you open?');
    expect(`${mail?.text}${mail?.html}`).not.toContain('Carla');
  });
});

describe('delivery', () => {
  it('SMTP down: the mail is retried and delivered once when the server is back', async () => {
    smtp.setDown(true);
    const sample = await insertSample();
    await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'review' },
    });
    for (let i = 0; i < 100; i++) {
      const [row] = await t.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.subject, `${displayId(sample.id)} is now "Review"`));
      if (row && row.attempts >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [failing] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, `${displayId(sample.id)} is now "Review"`));
    expect(failing?.state).toBe('pending');
    expect(failing?.attempts).toBeGreaterThanOrEqual(2);
    expect(failing?.lastError).toMatch(/451/);
    smtp.setDown(false);
    await smtp.waitFor((m) => m.subject === `${displayId(sample.id)} is now "Review"`, { timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 1000));
    expect(smtp.mails.filter((m) => m.subject === `${displayId(sample.id)} is now "Review"`)).toHaveLength(1);
    const [sent] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.id, failing?.id ?? 0));
    expect(sent?.state).toBe('sent');
    expect(sent?.sentAt).not.toBeNull();
  });

  it('two app instances on one database deliver each mail exactly once', async () => {
    const second = await secondInstance(t, { SMTP_URL: smtp.url });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const sample = await insertSample({ itemName: `Twin ${i}` });
        ids.push(sample.id);
        await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
          token: staff.token,
          json: { status: 'analysis' },
        });
      }
      for (const id of ids) await smtp.waitFor((m) => m.subject.startsWith(`${displayId(id)} is now`));
      await new Promise((r) => setTimeout(r, 1500));
      for (const id of ids)
        expect(smtp.mails.filter((m) => m.subject.startsWith(`${displayId(id)} is now`))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('live tokens are never stored', () => {
  /** Every stored mail (and delivery job) as text: what an admin or a database backup can read. */
  const storedMailText = async () =>
    JSON.stringify([
      await t.db.select().from(mailOutbox),
      await t.db.select().from(jobs).where(eq(jobs.queue, 'mail.send')),
    ]);
  const tokenOf = (link: string | undefined) => new URL(link ?? 'http://x').searchParams.get('token') ?? '';

  it('confirmation, reset and unsubscribe links: redacted in the Outbox, live in the mail sent, and they work', async () => {
    const email = `sealed-${Date.now()}@example.com`;
    const registered = await call(t, 'POST', '/api/register', {
      json: { email, password: 'Heliotrope-Sextant-91', firstName: 'Sybil', lastName: 'Sealed' },
    });
    expect(registered.status).toBe(201);
    await call(t, 'POST', '/api/auth/forgot-password', { json: { email } });
    const sample = await insertSample({ itemName: 'Sealed teapot' });
    await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'analysis' },
    });
    const [welcome] = await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Welcome'));
    const [reset] = await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Reset your'));
    const [status] = await smtp.waitFor((m) => m.subject.startsWith(`${displayId(sample.id)} is now`));
    const verifyToken = tokenOf(welcome?.links.find((l) => l.includes('/verify-email?token=')));
    const resetToken = tokenOf(reset?.links.find((l) => l.includes('/reset-password?token=')));
    const unsubscribeToken = tokenOf(status?.links.find((l) => l.includes('/unsubscribe?token=')));
    const oneClick = status?.headers.get('list-unsubscribe') ?? '';
    for (const token of [verifyToken, resetToken, unsubscribeToken]) expect(token.length).toBeGreaterThan(20);
    expect(oneClick).toContain(unsubscribeToken);
    expect(reset?.html).toContain(`reset-password?token=${resetToken}`);

    const stored = await storedMailText();
    for (const token of [verifyToken, resetToken, unsubscribeToken]) expect(stored).not.toContain(token);
    // What the admin reads in the Outbox: the same mail with the link's token redacted.
    const [row] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, reset?.subject ?? ''))
      .orderBy(mailOutbox.id);
    expect(row?.text).toContain('http://lab.test/reset-password?token=REDACTED-1');
    const shown = await call(t, 'GET', `/api/admin/mail/outbox/${row?.id}`, { token: admin.token });
    expect(shown.text).toContain('reset-password?token=REDACTED-1');
    expect(shown.text).not.toContain(resetToken);
    // Sent: not even the sealed copy is kept.
    expect(row?.state).toBe('sent');
    expect(row?.sealedTokens).toBeNull();

    // The links of the mails as received work.
    expect((await call(t, 'POST', '/api/auth/verify-email', { json: { token: verifyToken } })).status).toBe(
      200,
    );
    const newPassword = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token: resetToken, password: 'Quillwort-Astrolabe-27' },
    });
    expect(newPassword.status).toBe(200);
    expect(
      (await call(t, 'POST', `/api/mail/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`)).status,
    ).toBe(200);
    const [off] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(off?.notifyStatusChanges).toBe(false);
    // The other tests expect the customer's status mails on.
    await t.db.update(users).set({ notifyStatusChanges: true }).where(eq(users.id, customer.id));
  });

  it('a mail waiting while no mail server is set keeps only sealed tokens, and is delivered with a working link after a restart', async () => {
    const dataDir = t.dataDir;
    const config = (smtpUrl?: string) =>
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        JWT_SECRET: t.app.deps.config.jwtSecret,
        PUBLIC_URL: 'http://lab.test',
        ...(smtpUrl ? { SMTP_URL: smtpUrl } : {}),
      });
    const user = await createUser(t, { firstName: 'Walter' });
    // An instance without SMTP queues the reset mail; nothing delivers it there.
    const quiet = await buildApp({
      config: config(),
      database: t.database,
      storage: t.storage,
      logger: false,
      serveWeb: false,
      runJobs: false,
    });
    try {
      await quiet.deps.db.transaction(async (tx) => {
        const token = await createAccountToken(tx, {
          userId: user.id,
          purpose: 'reset',
          ttlMs: RESET_TOKEN_MINUTES * 60_000,
        });
        const outboxId = await quiet.deps.mailer.queue(tx, user.email, 'passwordReset', {
          firstName: user.firstName,
          resetUrl: quiet.deps.mailer.url(`/reset-password?token=${token}`),
        });
        // As stored (read before the commit, so no worker has delivered it yet).
        const [waiting] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
        expect(waiting?.text).toContain('reset-password?token=REDACTED-1');
        expect(JSON.stringify(waiting)).not.toContain(token);
        expect(waiting?.sealedTokens).toMatch(/^v1\./);
      });
    } finally {
      await quiet.close();
    }
    // The running app (with SMTP, same secret) delivers it with the live link.
    const [mail] = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Reset your'));
    const token = tokenOf(mail?.links.find((l) => l.includes('/reset-password?token=')));
    expect(token).not.toBe('REDACTED-1');
    expect(await storedMailText()).not.toContain(token);
    const done = await call(t, 'POST', '/api/auth/reset-password', {
      json: { token, password: 'Marginalia-Theodolite-63' },
    });
    expect(done.status).toBe(200);
  });
});

describe('unsubscribe', () => {
  it('the one-click POST of a mail program turns status mails off; a forged token changes nothing', async () => {
    const user = await createUser(t, { role: 'user' });
    const link = t.app.deps.mailer.unsubscribeUrl(user.id);
    const good = new URL(link).searchParams.get('token') ?? '';
    const forged = good.replace(/^\d+/, String(customer.id));
    const bad = await call(t, 'POST', `/api/mail/unsubscribe?token=${encodeURIComponent(forged)}`, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(bad.status).toBe(400);
    const [still] = await t.db.select().from(users).where(eq(users.id, customer.id));
    expect(still?.notifyStatusChanges).toBe(true);
    const ok = await call(t, 'POST', `/api/mail/unsubscribe?token=${encodeURIComponent(good)}`, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ok.status).toBe(200);
    const [off] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(off?.notifyStatusChanges).toBe(false);
    expect((await call(t, 'POST', '/api/mail/unsubscribe', { json: { token: 'nonsense' } })).status).toBe(
      400,
    );
  });
});
