import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote, QuoteDraft } from '../../../common/contracts/quotes';
import type { SampleDetail } from '../../../common/contracts/samples';
import type { AdminAnalytics, WorkListItem } from '../../../common/contracts/workflow';
import { addBusinessDays, utcDay } from '../../../common/domain/turnaround';
import { mailOutbox, quotes, samples } from '../../db/schema';
import { insertSample, PHOTO_PNG } from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Quotes, turnaround and invoices (docs/product/quotes.md) over HTTP, on both databases.

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let otherStaff: TestUser;
let owner: TestUser;
let stranger: TestUser;
const hasPdfText = requirePrograms([PROGRAMS.pdftotext], 'invoice PDF text checks');

const inDays = (days: number) => utcDay(new Date(Date.now() + days * 86_400_000));
const lines = [
  { description: 'Expert Valuation', amount: 0.1 },
  { description: 'Authenticity Check', amount: '0.20' },
];
const quoteBody = (extra: Record<string, unknown> = {}) => ({
  lines,
  currency: 'EUR',
  validUntil: inDays(14),
  note: 'Includes return shipping.',
  ...extra,
});

async function newSample(values: Parameters<typeof insertSample>[2] = {}) {
  return insertSample(t.db, owner, { assignedStaffId: staff.id, expertValuation: true, ...values });
}
const displayId = (id: number) => `VAL-${String(id).padStart(4, '0')}`;
/** The 'quote answered' mails queued for one sample, oldest first. */
const answeredMails = async (id: number) =>
  (await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'quoteAnswered')))
    .filter((m) => m.subject.includes(`${displayId(id)} `))
    .sort((a, b) => a.id - b.id);
const detail = async (id: number, token = owner.token) =>
  (await call(t, 'GET', `/api/samples/${id}`, { token })).body as SampleDetail;
const send = (id: number, token: string, body: unknown = quoteBody()) =>
  call(t, 'POST', `/api/staff/samples/${id}/quote`, { token, json: body });

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, otherStaff, owner, stranger] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user', firstName: 'Ada', lastName: 'Byron' }),
    createUser(t, { role: 'user' }),
  ]);
  const form = new FormData();
  form.append(
    'settings',
    JSON.stringify({
      labName: 'Harbor Valuation Lab',
      address: '1 Quay Street, Bristol',
      email: 'lab@example.com',
      prices: {
        expertValuation: 0.1,
        authenticityCheck: 0.2,
        conditionAssessment: 80,
        provenanceResearch: 150,
      },
      urgentSurchargePercent: 50,
      currency: 'EUR',
    }),
  );
  expect((await call(t, 'POST', '/api/lab/settings', { token: admin.token, form })).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('quote draft from the price list', () => {
  it('offers one line per requested service plus the urgent surcharge, summed exactly', async () => {
    const sample = await newSample({ authenticityCheck: true, urgencyLevel: 'urgent' });
    const res = await call(t, 'GET', `/api/staff/samples/${sample.id}/quote/draft`, { token: staff.token });
    expect(res.status).toBe(200);
    const draft = res.body as QuoteDraft;
    expect(draft.lines).toEqual([
      { description: 'Expert Valuation', amount: 0.1, amountMinor: 10 },
      { description: 'Authenticity Check', amount: 0.2, amountMinor: 20 },
      { description: 'Urgent handling (+50%)', amount: 0.15, amountMinor: 15 },
    ]);
    expect(draft).toMatchObject({
      total: 0.45,
      totalMinor: 45,
      currency: 'EUR',
      urgent: true,
      validUntil: inDays(14),
    });
    // Other staff, customers: refused; a missing sample: 404.
    expect(
      (await call(t, 'GET', `/api/staff/samples/${sample.id}/quote/draft`, { token: otherStaff.token }))
        .status,
    ).toBe(403);
    expect(
      (await call(t, 'GET', `/api/staff/samples/${sample.id}/quote/draft`, { token: owner.token })).status,
    ).toBe(403);
    expect(
      (await call(t, 'GET', '/api/staff/samples/999999/quote/draft', { token: admin.token })).status,
    ).toBe(404);
  });
});

describe('sending a quote', () => {
  it('is done by the assigned staff member or an admin only; the total is exact; the customer is mailed', async () => {
    const sample = await newSample();
    expect((await send(sample.id, otherStaff.token)).status).toBe(403);
    expect((await send(sample.id, owner.token)).status).toBe(403);
    expect((await send(sample.id, stranger.token)).status).toBe(403);
    expect((await send(999_999, admin.token)).status).toBe(404);
    expect(await t.db.select().from(quotes).where(eq(quotes.sampleId, sample.id))).toHaveLength(0);

    const res = await send(sample.id, staff.token);
    expect(res.status).toBe(201);
    const quote = res.body as Quote;
    expect(quote).toMatchObject({
      status: 'sent',
      total: 0.3,
      totalMinor: 30,
      currency: 'EUR',
      validUntil: inDays(14),
      note: 'Includes return shipping.',
      invoice: null,
    });
    expect(quote.lines.map((l) => l.amountMinor)).toEqual([10, 20]);

    const seen = await detail(sample.id);
    expect(seen.quote).toMatchObject({ id: quote.id, status: 'sent', total: 0.3 });
    // The sample page reads the quote in its own statement: every field as the send answered it.
    expect(seen.quote).toEqual(quote);
    expect(seen.quoteStatus).toBe('sent');

    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, owner.email));
    const mail = mails.find((m) => m.kind === 'quoteSent');
    expect(mail?.subject).toBe(
      `Your quote for VAL-${String(sample.id).padStart(4, '0')} Silver teapot: €0.30`,
    );
    expect(mail?.text).toContain('Expert Valuation: €0.10');
    expect(mail?.text).toContain(`/sample/${sample.id}`);

    // An admin may send too (it replaces the waiting one).
    expect((await send(sample.id, admin.token)).status).toBe(201);
  });

  it('refuses bad quotes with 400 and stores nothing', async () => {
    const sample = await newSample();
    const cases: [unknown, string][] = [
      [quoteBody({ lines: [] }), 'lines'],
      [quoteBody({ lines: [{ description: 'X', amount: -1 }] }), 'lines.0.amount'],
      [quoteBody({ lines: [{ description: 'X', amount: '0.001' }] }), 'lines.0.amount'],
      [quoteBody({ lines: [{ description: ' ', amount: 1 }] }), 'lines.0.description'],
      [quoteBody({ currency: 'EURO' }), 'currency'],
      [quoteBody({ validUntil: inDays(-1) }), 'validUntil'],
      [quoteBody({ validUntil: '2026-02-30' }), 'validUntil'],
      [quoteBody({ validUntil: inDays(400) }), 'validUntil'],
      [quoteBody({ note: 'x'.repeat(2001) }), 'note'],
    ];
    for (const [body, path] of cases) {
      const res = await send(sample.id, staff.token, body);
      expect(res.status, path).toBe(400);
      expect(
        (res.body as { errors: { path: string }[] }).errors.map((e) => e.path),
        path,
      ).toContain(path);
    }
    expect(await t.db.select().from(quotes).where(eq(quotes.sampleId, sample.id))).toHaveLength(0);
  });

  it('is refused with 409 for a completed sample, and nothing is stored', async () => {
    const sample = await newSample({ status: 'completed' });
    const res = await send(sample.id, admin.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'This sample is completed: there is nothing left to quote' });
    expect(await t.db.select().from(quotes).where(eq(quotes.sampleId, sample.id))).toEqual([]);
  });

  it('replaces or withdraws a quote before it is answered, and not after', async () => {
    const sample = await newSample();
    const first = (await send(sample.id, staff.token)).body as Quote;
    const second = (
      await send(sample.id, staff.token, quoteBody({ lines: [{ description: 'Valuation', amount: 45 }] }))
    ).body as Quote;
    const rows = await t.db.select().from(quotes).where(eq(quotes.sampleId, sample.id));
    expect(rows.find((r) => r.id === first.id)?.status).toBe('withdrawn');
    expect((await detail(sample.id)).quote).toMatchObject({ id: second.id, total: 45, status: 'sent' });

    const withdrawn = await call(t, 'POST', `/api/staff/samples/${sample.id}/quote/withdraw`, {
      token: staff.token,
    });
    expect(withdrawn.status).toBe(200);
    expect((withdrawn.body as Quote).status).toBe('withdrawn');
    expect((await detail(sample.id)).quoteStatus).toBe('withdrawn');
    expect(
      (await call(t, 'POST', `/api/staff/samples/${sample.id}/quote/withdraw`, { token: staff.token }))
        .status,
    ).toBe(409);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token })).status,
    ).toBe(409);

    await send(sample.id, staff.token);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token })).status,
    ).toBe(200);
    expect((await send(sample.id, staff.token)).status).toBe(409);
    expect(
      (await call(t, 'POST', `/api/staff/samples/${sample.id}/quote/withdraw`, { token: admin.token }))
        .status,
    ).toBe(409);
  });
});

describe('answering a quote', () => {
  it('only the owner accepts; acceptance starts the turnaround', async () => {
    const sample = await newSample({ submissionDate: new Date('2024-01-05T10:00:00Z') });
    expect((await detail(sample.id)).expectedCompletionDate).toBe('2024-01-19');
    await send(sample.id, staff.token);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: staff.token })).status,
    ).toBe(403);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: admin.token })).status,
    ).toBe(403);
    expect((await call(t, 'POST', '/api/samples/999999/quote/accept', { token: owner.token })).status).toBe(
      404,
    );

    const before = new Date();
    const res = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token });
    expect(res.status).toBe(200);
    const accepted = res.body as Quote;
    expect(accepted.status).toBe('accepted');
    expect(accepted.invoice).toEqual({
      number: `VAL-${String(sample.id).padStart(4, '0')}-Q${accepted.id}`,
      paid: false,
      paidAt: null,
      paidReference: null,
    });
    const seen = await detail(sample.id);
    expect(seen.expectedCompletionDate).toBe(addBusinessDays(before, 10));
    expect(seen.overdue).toBe(false);
    // The lab hears of it at once: the staff member who sent it (here also the analyst), once.
    const answered = await answeredMails(sample.id);
    expect(answered.map((m) => m.toAddress)).toEqual([staff.email]);
    expect(answered[0]?.subject).toBe(`Quote accepted: ${displayId(sample.id)} Silver teapot (€0.30)`);
    expect(answered[0]?.text).toContain('Ada Byron accepted the quote of €0.30');
    expect(answered[0]?.text).toContain(`/sample/${sample.id}`);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token })).status,
    ).toBe(409);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/decline`, { token: owner.token, json: {} }))
        .status,
    ).toBe(409);
  });

  it('declines with an optional reason, and staff see the answer in their lists', async () => {
    const sample = await newSample();
    await send(sample.id, staff.token);
    const tooLong = await call(t, 'POST', `/api/samples/${sample.id}/quote/decline`, {
      token: owner.token,
      json: { reason: 'x'.repeat(1001) },
    });
    expect(tooLong.status).toBe(400);
    const res = await call(t, 'POST', `/api/samples/${sample.id}/quote/decline`, {
      token: owner.token,
      json: { reason: 'Too expensive for now' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'declined',
      declineReason: 'Too expensive for now',
      invoice: null,
    });
    const declined = await answeredMails(sample.id);
    expect(declined.map((m) => m.toAddress)).toEqual([staff.email]);
    expect(declined[0]?.subject).toBe(`Quote declined: ${displayId(sample.id)} Silver teapot (€0.30)`);
    expect(declined[0]?.text).toContain('Too expensive for now');
    expect(declined[0]?.text).toContain('You can send a new quote from the sample page.');
    const work = (await call(t, 'GET', '/api/staff/samples', { token: staff.token })).body as WorkListItem[];
    expect(work.find((s) => s.id === sample.id)?.quoteStatus).toBe('declined');
    const all = (await call(t, 'GET', '/api/admin/samples?pageSize=100', { token: admin.token }))
      .body as WorkListItem[];
    expect(all.find((s) => s.id === sample.id)?.quoteStatus).toBe('declined');
    // Declined: the lab may send a new quote.
    expect((await send(sample.id, staff.token)).status).toBe(201);
    // A decline without a body is fine too.
    const bare = await call(t, 'POST', `/api/samples/${sample.id}/quote/decline`, { token: owner.token });
    expect(bare.status, bare.text).toBe(200);
    expect((await answeredMails(sample.id)).at(-1)?.text).toContain('They gave no reason.');
  });

  it('a quote an admin sent: the admin and the analyst both hear the answer; a refused answer mails nobody', async () => {
    const sample = await newSample();
    expect((await send(sample.id, admin.token)).status).toBe(201);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: stranger.token })).status,
    ).toBe(404);
    expect(await answeredMails(sample.id)).toHaveLength(0);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token })).status,
    ).toBe(200);
    expect((await answeredMails(sample.id)).map((m) => m.toAddress).sort()).toEqual(
      [admin.email, staff.email].sort(),
    );
  });

  it('an answer naming a quote the lab has since replaced or withdrawn is refused with 409, and changes nothing', async () => {
    const sample = await newSample();
    const seen = (await send(sample.id, staff.token)).body as Quote;
    const current = (
      await send(sample.id, staff.token, quoteBody({ lines: [{ description: 'Valuation', amount: 900 }] }))
    ).body as Quote;
    for (const path of ['accept', 'decline']) {
      const stale = await call(t, 'POST', `/api/samples/${sample.id}/quote/${path}`, {
        token: owner.token,
        json: { quoteId: seen.id },
      });
      expect(stale.status).toBe(409);
      expect((stale.body as { message: string }).message).toBe(
        'The lab has changed this quote since you opened it; please read the current quote and answer again',
      );
    }
    expect((await detail(sample.id)).quote).toMatchObject({ id: current.id, status: 'sent', total: 900 });
    expect(await answeredMails(sample.id)).toHaveLength(0);
    // A quote id that is not a number is a 400, not a silent accept.
    const bad = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, {
      token: owner.token,
      json: { quoteId: 'latest' },
    });
    expect(bad.status).toBe(400);
    expect((await detail(sample.id)).quote?.status).toBe('sent');
    // Withdrawn since it was read: still 409, even though no other quote replaced it.
    await call(t, 'POST', `/api/staff/samples/${sample.id}/quote/withdraw`, { token: staff.token });
    const gone = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, {
      token: owner.token,
      json: { quoteId: current.id },
    });
    expect(gone.status).toBe(409);
    // The quote on screen is the one waiting: accepted.
    const fresh = (await send(sample.id, staff.token)).body as Quote;
    const ok = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, {
      token: owner.token,
      json: { quoteId: fresh.id },
    });
    expect(ok.status).toBe(200);
    expect((ok.body as Quote).id).toBe(fresh.id);
  });

  it('an expired quote reads "expired" and cannot be accepted', async () => {
    const sample = await newSample();
    const sent = (await send(sample.id, staff.token, quoteBody({ validUntil: inDays(0) }))).body as Quote;
    // Valid through its last day: today it can still be answered; move that day into the past.
    const yesterday = inDays(-1);
    await t.db.update(quotes).set({ validUntil: yesterday }).where(eq(quotes.id, sent.id));
    await t.db.update(samples).set({ quoteValidUntil: yesterday }).where(eq(samples.id, sample.id));
    const seen = await detail(sample.id);
    expect(seen.quote?.status).toBe('expired');
    expect(seen.quoteStatus).toBe('expired');
    const res = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token });
    expect(res.status).toBe(409);
    expect((res.body as { message: string }).message).toBe(
      'This quote has expired; ask the lab for a new one',
    );
    expect((await detail(sample.id)).quote?.status).toBe('expired');
    // The lab can replace it with a fresh one, which can be accepted.
    await send(sample.id, staff.token);
    expect(
      (await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, { token: owner.token })).status,
    ).toBe(200);
  });
});

describe('turnaround in every answer', () => {
  it('counts from submission without a quote: 10 business days, 5 when urgent, weekends skipped; flags late samples', async () => {
    // Friday 2024-03-01.
    const standard = await newSample({
      submissionDate: new Date('2024-03-01T16:00:00Z'),
      status: 'analysis',
    });
    const urgent = await newSample({
      submissionDate: new Date('2024-03-01T16:00:00Z'),
      urgencyLevel: 'urgent',
      status: 'completed',
    });
    const fresh = await newSample();
    expect(await detail(standard.id)).toMatchObject({ expectedCompletionDate: '2024-03-15', overdue: true });
    expect(await detail(urgent.id)).toMatchObject({ expectedCompletionDate: '2024-03-08', overdue: false });
    expect(await detail(fresh.id)).toMatchObject({
      expectedCompletionDate: addBusinessDays(new Date(), 10),
      overdue: false,
    });

    const own = (await call(t, 'GET', '/api/samples', { token: owner.token })).body as WorkListItem[];
    expect(own.find((s) => s.id === standard.id)).toMatchObject({
      expectedCompletionDate: '2024-03-15',
      overdue: true,
    });
    const work = (await call(t, 'GET', '/api/staff/samples', { token: staff.token })).body as WorkListItem[];
    expect(work.find((s) => s.id === urgent.id)).toMatchObject({
      expectedCompletionDate: '2024-03-08',
      overdue: false,
    });

    const stats = (await call(t, 'GET', '/api/admin/analytics', { token: admin.token }))
      .body as AdminAnalytics;
    const late = (await call(t, 'GET', '/api/admin/samples?pageSize=100', { token: admin.token }))
      .body as WorkListItem[];
    expect(stats.overdueSamples).toBe(late.filter((s) => s.overdue).length);
    expect(stats.overdueSamples).toBeGreaterThanOrEqual(1);
  });
});

describe('invoice', () => {
  let sampleId: number;
  let quote: Quote;
  const work = mkdtempSync(join(tmpdir(), 'vl-invoice-'));
  const pdfText = (bytes: Buffer, name: string) => {
    const file = join(work, `${name}.pdf`);
    writeFileSync(file, bytes);
    const r = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    if (r.error) throw r.error;
    return r.stdout;
  };

  beforeAll(async () => {
    // How to pay, and the logo, from the lab settings (both printed on the invoice).
    const form = new FormData();
    form.append(
      'settings',
      JSON.stringify({
        labName: 'Harbor Valuation Lab',
        address: '1 Quay Street, Bristol',
        email: 'lab@example.com',
        paymentInstructions: 'Bank transfer to Harbor Bank\nIBAN GB00 HARB 0000 1234 5678 90',
        paymentLink: 'pay.harbor-lab.example/invoices',
      }),
    );
    form.append('logo', new Blob([new Uint8Array(PHOTO_PNG)], { type: 'image/png' }), 'logo.png');
    const saved = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      paymentInstructions: 'Bank transfer to Harbor Bank\nIBAN GB00 HARB 0000 1234 5678 90',
      paymentLink: 'https://pay.harbor-lab.example/invoices',
    });
    const sample = await newSample({ itemName: 'Georgian teapot' });
    sampleId = sample.id;
    expect((await call(t, 'GET', `/api/samples/${sampleId}/invoice`, { token: owner.token })).status).toBe(
      404,
    );
    await send(
      sampleId,
      staff.token,
      quoteBody({ lines: [...lines, { description: 'Provenance Research', amount: 1234.5 }] }),
    );
    quote = (await call(t, 'POST', `/api/samples/${sampleId}/quote/accept`, { token: owner.token }))
      .body as Quote;
  });

  it('is downloadable by the owner, any staff member and admins; 404 for other customers', async () => {
    for (const who of [owner, staff, otherStaff, admin]) {
      const res = await call(t, 'GET', `/api/samples/${sampleId}/invoice`, { token: who.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe(
        `attachment; filename="Invoice-${quote.invoice?.number}.pdf"`,
      );
      expect(res.buffer?.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await call(t, 'GET', `/api/samples/${sampleId}/invoice`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await call(t, 'GET', `/api/samples/${sampleId}/invoice`)).status).toBe(401);
  });

  it.skipIf(!hasPdfText)(
    'shows the lab, the lines, the exact total, the sample and the payment reference',
    async () => {
      const res = await call(t, 'GET', `/api/samples/${sampleId}/invoice`, { token: owner.token });
      const text = pdfText(res.buffer ?? Buffer.alloc(0), 'unpaid');
      const displayId = `VAL-${String(sampleId).padStart(4, '0')}`;
      for (const expected of [
        'Harbor Valuation Lab',
        '1 Quay Street, Bristol',
        'Invoice',
        `${displayId} · Georgian teapot`,
        'Ada Byron',
        'Expert Valuation',
        '€0.10',
        'Authenticity Check',
        '€0.20',
        'Provenance Research',
        '€1,234.50',
        '€1,234.80',
        `Payment reference: ${displayId}-Q${quote.id}`,
        'Payment due',
        'How to pay',
        'Bank transfer to Harbor Bank',
        'IBAN GB00 HARB 0000 1234 5678 90',
        'Pay online: https://pay.harbor-lab.example/invoices',
      ])
        expect(text).toContain(expected);
      // The date as the product writes it ('November 26, 2026'), not '2026-11-26'.
      expect(text).toMatch(/Date\s+[A-Z][a-z]+ \d{1,2}, \d{4}/);
      expect(text).not.toMatch(/Date\s+\d{4}-\d{2}-\d{2}/);
      // The lab's logo is drawn.
      const file = join(work, 'logo-check.pdf');
      writeFileSync(file, res.buffer ?? Buffer.alloc(0));
      const images = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' }).stdout;
      expect(images.trim().split('\n').length).toBeGreaterThan(2);
    },
  );

  it("mails the owner their invoice with the lab's payment instructions when they accept", async () => {
    const [mail] = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invoiceIssued'))).filter(
      (m) => m.subject.includes(`${displayId(sampleId)} `),
    );
    expect(mail?.toAddress).toBe(owner.email);
    expect(mail?.subject).toBe(
      `Your invoice ${displayId(sampleId)}-Q${quote.id} for ${displayId(sampleId)} Georgian teapot: €1,234.80`,
    );
    expect(mail?.text).toContain('IBAN GB00 HARB 0000 1234 5678 90');
    expect(mail?.text).toContain('https://pay.harbor-lab.example/invoices');
    expect(mail?.text).toContain(`payment reference ${displayId(sampleId)}-Q${quote.id}`);
  });

  it('refuses a payment link that is not a web address, and keeps the stored one', async () => {
    const form = new FormData();
    form.append(
      'settings',
      JSON.stringify({ labName: 'Harbor Valuation Lab', paymentLink: 'javascript:alert(1)' }),
    );
    const res = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    expect(res.status).toBe(400);
    const now = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect((now.body as { paymentLink: string }).paymentLink).toBe('https://pay.harbor-lab.example/invoices');
  });

  it('an admin marks it paid with a reference; the customer sees it paid', async () => {
    const path = `/api/admin/samples/${sampleId}/paid`;
    expect((await call(t, 'POST', path, { token: staff.token, json: { reference: 'X' } })).status).toBe(403);
    expect((await call(t, 'POST', path, { token: owner.token, json: { reference: 'X' } })).status).toBe(403);
    expect((await call(t, 'POST', path, { token: admin.token, json: { reference: '  ' } })).status).toBe(400);
    const unquoted = await newSample();
    expect(
      (
        await call(t, 'POST', `/api/admin/samples/${unquoted.id}/paid`, {
          token: admin.token,
          json: { reference: 'X' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await call(t, 'POST', '/api/admin/samples/999999/paid', {
          token: admin.token,
          json: { reference: 'X' },
        })
      ).status,
    ).toBe(404);

    const res = await call(t, 'POST', path, { token: admin.token, json: { reference: 'BANK-2026-0042' } });
    expect(res.status).toBe(200);
    expect((res.body as Quote).invoice).toMatchObject({ paid: true, paidReference: 'BANK-2026-0042' });
    expect((await detail(sampleId)).quote?.invoice).toMatchObject({
      paid: true,
      paidReference: 'BANK-2026-0042',
    });
    expect((await call(t, 'POST', path, { token: admin.token, json: { reference: 'again' } })).status).toBe(
      409,
    );
    if (hasPdfText) {
      const pdf = await call(t, 'GET', `/api/samples/${sampleId}/invoice`, { token: owner.token });
      expect(pdfText(pdf.buffer ?? Buffer.alloc(0), 'paid')).toContain('(reference BANK-2026-0042)');
    }
  });
});
