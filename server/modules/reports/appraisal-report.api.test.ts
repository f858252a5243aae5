import { decodeJwt } from 'jose';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportContent } from '../../../common/contracts/reports';
import { addMonths, DEFAULT_CERTIFICATION } from '../../../common/domain/appraisal';
import { latestEffectiveDate } from '../../../common/domain/valuation';
import { jobs, labSettings, mailOutbox, reportRevisions, samples, users } from '../../db/schema';
import { REVALUATION_QUEUE, sendRevaluationNotice } from './revaluation.job';
import {
  appraisalAssignment,
  comparableSale,
  photoFile,
  submissionFields,
  submitSample,
  valuationReport,
} from '../../../tests/support/factories';
import { leakCheckText } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// The appraisal report (docs/product/appraisal-report.md): the assignment a value needs, the
// comparable sales and their bounds, tax mode and its window, the re-valuation date, and what stays
// private (value, prices, tax details) in verification and the credential. Both report endpoints.

let t: TestApp;
let staff: TestUser;
let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  [staff, admin, owner] = await Promise.all([
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

type Detail = {
  files: { id: number; fileCategory: string }[];
  report: ReportContent | null;
  reportCode: string | null;
  revalueBy: string | null;
  revaluationDue: boolean;
  purposeOfValuation: string | null;
};

async function painting(opts: { photos?: number; purpose?: string } = {}) {
  const files = Array.from({ length: opts.photos ?? 2 }, (_, i) => photoFile(`view-${i + 1}.jpg`));
  const id = await submitSample(
    t,
    owner.token,
    submissionFields({ category: 'artwork-paintings', purposeOfValuation: opts.purpose ?? 'insurance' }),
    files,
  );
  await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, id));
  const detail = await sampleDetail(id);
  return { id, photoIds: detail.files.filter((f) => f.fileCategory === 'photo').map((f) => f.id) };
}

async function sampleDetail(id: number): Promise<Detail> {
  const res = await call(t, 'GET', `/api/samples/${id}`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body as Detail;
}

const ENDPOINTS = ['/api/staff/samples/:id/report', '/api/samples/:id/report'] as const;
const issueAt = (path: string, id: number, json: unknown) =>
  call(t, 'POST', path.replace(':id', String(id)), { token: staff.token, json });
const issue = (id: number, json: unknown) => issueAt(ENDPOINTS[0], id, json);

/** Sets lab terms, making the lab's settings row if the lab has none yet. */
async function setLab(values: Partial<typeof labSettings.$inferInsert>) {
  const rows = await t.db.update(labSettings).set(values).returning({ id: labSettings.id });
  if (rows.length === 0) await t.db.insert(labSettings).values({ labName: 'Test laboratory', ...values });
}

type Refusal = { message: string; errors: { path: string; message: string }[] };
const revisionsOf = (id: number) =>
  t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, id));

const taxDetails = (changes: Record<string, unknown> = {}) => ({
  donee: 'Fitzwilliam Museum, Cambridge',
  contributionDate: '2026-03-01',
  dateAcquired: '1998-06-02',
  howAcquired: 'Purchased at auction, Sotheby’s London',
  costBasis: '4200.00',
  appraiserTaxId: '98-7654321',
  ...changes,
});

describe.each(ENDPOINTS)('the assignment on %s', (path) => {
  it('a valuation without its assignment is refused with the field named, and nothing is issued', async () => {
    const s = await painting();
    const res = await issueAt(path, s.id, valuationReport([], { assignment: null }));
    expect(res.status).toBe(400);
    expect((res.body as Refusal).errors).toContainEqual({
      path: 'assignment',
      message:
        'A valuation needs its assignment: intended use, users, value definition, inspection and conditions',
    });
    expect(await revisionsOf(s.id)).toHaveLength(0);
  });

  it('an assay-only report is issued without any assignment, as before', async () => {
    const s = await painting();
    const res = await issueAt(path, s.id, { elements: [{ element: 'Gold', percentage: 75 }] });
    expect(res.status).toBe(200);
    const detail = await sampleDetail(s.id);
    expect(detail.report).toMatchObject({
      assignment: null,
      comparables: [],
      revalueBy: null,
      taxAppraisal: null,
    });
    expect(detail.revalueBy).toBeNull();
    expect(detail.revaluationDue).toBe(false);
  });

  it('stores the assignment and twelve comparables, cleaned, prices each in its own currency', async () => {
    const s = await painting({ photos: 3 });
    const comparables = Array.from({ length: 12 }, (_, i) =>
      comparableSale(i + 1, i === 0 ? { photoFileId: s.photoIds[1] ?? null, price: '1234.5' } : {}),
    );
    const res = await issueAt(
      path,
      s.id,
      valuationReport([], {
        assignment: appraisalAssignment({
          scopeOfWork: '<p onclick="x()">Auction records<script>alert(1)</script></p>',
        }),
        comparables,
      }),
    );
    expect(res.status).toBe(200);
    const { report } = await sampleDetail(s.id);
    expect(report?.assignment).toEqual(appraisalAssignment({ scopeOfWork: '<p>Auction records</p>' }));
    expect(report?.comparables).toHaveLength(12);
    expect(report?.comparables[0]).toMatchObject({
      price: 1234.5,
      currency: 'GBP',
      photoFileId: s.photoIds[1],
    });
    expect(report?.comparables[2]).toMatchObject({ price: 13_750, currency: 'USD' });
    const [rev] = await revisionsOf(s.id);
    // At rest in minor units of each sale's own currency.
    expect(rev?.content?.comparables?.[0]?.price).toBe(123_450);
    expect(rev?.content?.comparables?.[2]?.price).toBe(1_375_000);
  });
});

describe('refused appraisal content: 400 with the field and a clear message, nothing issued', () => {
  const tomorrow = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'thirteen comparables',
      { comparables: Array.from({ length: 13 }, (_, i) => comparableSale(i + 1)) },
      'comparables',
      'A report can list at most 12 comparable sales',
    ],
    [
      'a price of 0',
      { comparables: [comparableSale(1, { price: 0 })] },
      'comparables.0.price',
      'The price must be more than 0',
    ],
    [
      'a negative price',
      { comparables: [comparableSale(1, { price: -5 })] },
      'comparables.0.price',
      'The amount cannot be negative',
    ],
    [
      'a sale date in the future',
      { comparables: [comparableSale(1, { saleDate: '2999-01-01' })] },
      'comparables.0.saleDate',
      'Sale date cannot be in the future',
    ],
    [
      'an unknown currency',
      { comparables: [comparableSale(1, { currency: 'XYZ' })] },
      'comparables.0.currency',
      'Enter a three-letter currency code such as EUR, USD or GBP',
    ],
    [
      'a javascript: lot link',
      { comparables: [comparableSale(1, { lotUrl: 'javascript:alert(1)' })] },
      'comparables.0.lotUrl',
      'The lot link must be an http or https address',
    ],
    [
      'a comparable without a source',
      { comparables: [comparableSale(1, { source: ' ' })] },
      'comparables.0.source',
      'Please name the source of the sale',
    ],
    [
      'an inspection date in the future',
      {
        assignment: appraisalAssignment({
          inspectionDate: tomorrow > latestEffectiveDate() ? tomorrow : '2999-01-01',
        }),
      },
      'assignment.inspectionDate',
      'Inspection date cannot be in the future',
    ],
    [
      'an intended use over 2000 characters',
      { assignment: appraisalAssignment({ intendedUse: 'x'.repeat(2001) }) },
      'assignment.intendedUse',
      'The intended use can have at most 2000 characters',
    ],
    [
      'intended users over 500 characters',
      { assignment: appraisalAssignment({ intendedUsers: 'x'.repeat(501) }) },
      'assignment.intendedUsers',
      'The intended users can have at most 500 characters',
    ],
    [
      'an unknown inspection',
      { assignment: appraisalAssignment({ inspection: 'by-phone' as never }) },
      'assignment.inspection',
      'Please choose how the item was inspected',
    ],
    [
      'another interest without its description',
      { assignment: appraisalAssignment({ propertyInterest: 'other', propertyInterestOther: '' }) },
      'assignment.propertyInterestOther',
      'Please describe the interest appraised',
    ],
    [
      'empty limiting conditions',
      { assignment: appraisalAssignment({ limitingConditions: '<p> </p>' }) },
      'assignment.limitingConditions',
      'Please state the limiting conditions',
    ],
    [
      'limiting conditions that are only a script',
      { assignment: appraisalAssignment({ limitingConditions: '<script>alert(1)</script>' }) },
      'assignment.limitingConditions',
      'Please state the limiting conditions',
    ],
    [
      'a re-valuation date on the effective date',
      { revalueBy: '2026-03-14' },
      'revalueBy',
      'The re-valuation date must be after the effective date',
    ],
    [
      'a re-valuation date that is not a date',
      { revalueBy: '2029-02-30' },
      'revalueBy',
      'Re-valuation date must be a date (YYYY-MM-DD)',
    ],
  ];
  it.each(cases)('%s', async (_name, change, path, message) => {
    const s = await painting();
    const res = await issue(s.id, valuationReport([], change));
    expect(res.status).toBe(400);
    expect((res.body as Refusal).errors).toContainEqual({ path, message });
    expect(await revisionsOf(s.id)).toHaveLength(0);
  });

  it("a comparable's photo from another sample is refused", async () => {
    const [mine, other] = await Promise.all([painting(), painting()]);
    const res = await issue(
      mine.id,
      valuationReport([], { comparables: [comparableSale(1, { photoFileId: other.photoIds[0] ?? 0 })] }),
    );
    expect(res.status).toBe(400);
    expect((res.body as Refusal).errors).toContainEqual({
      path: 'comparables.0.photoFileId',
      message: "A comparable's photo must be one of this sample's photos",
    });
    expect(await revisionsOf(mine.id)).toHaveLength(0);
  });

  it('a re-valuation date without a valuation is refused', async () => {
    const s = await painting();
    const res = await issue(s.id, {
      elements: [{ element: 'Gold', percentage: 75 }],
      revalueBy: '2030-01-01',
    });
    expect(res.status).toBe(400);
    expect((res.body as Refusal).errors).toContainEqual({
      path: 'revalueBy',
      message: 'A re-valuation date needs a valuation',
    });
  });

  it('zero comparables and exactly twelve are accepted', async () => {
    const none = await painting();
    expect((await issue(none.id, valuationReport([], { comparables: [] }))).status).toBe(200);
    const twelve = await painting();
    const all = Array.from({ length: 12 }, (_, i) => comparableSale(i + 1));
    expect((await issue(twelve.id, valuationReport([], { comparables: all }))).status).toBe(200);
  });
});

describe('tax mode: the purpose is a charitable donation', () => {
  const taxValuation = (effectiveDate: string, tax: unknown) =>
    valuationReport([], {
      valuation: {
        high: 18_000,
        currency: 'USD',
        valueType: 'fair-market',
        effectiveDate,
        basis: '<p>Sales.</p>',
      },
      revalueBy: null,
      taxAppraisal: tax as never,
    });

  it.each(ENDPOINTS)(
    'on %s the tax details are required, then stored, cost basis in the value currency',
    async (path) => {
      const s = await painting({ purpose: 'charitable-donation' });
      const missing = await issueAt(path, s.id, taxValuation('2026-02-20', null));
      expect(missing.status).toBe(400);
      expect((missing.body as Refusal).errors).toContainEqual({
        path: 'taxAppraisal',
        message: 'A valuation for a charitable donation needs the tax appraisal details',
      });
      const bad = await issueAt(path, s.id, taxValuation('2026-02-20', taxDetails({ appraiserTaxId: '' })));
      expect(bad.status).toBe(400);
      expect((bad.body as Refusal).errors[0]?.path).toBe('taxAppraisal.appraiserTaxId');
      expect(await revisionsOf(s.id)).toHaveLength(0);

      const ok = await issueAt(path, s.id, taxValuation('2026-02-20', taxDetails()));
      expect(ok.status).toBe(200);
      const { report } = await sampleDetail(s.id);
      expect(report?.taxAppraisal).toEqual({ ...taxDetails(), costBasis: 4200 });
      const [rev] = await revisionsOf(s.id);
      expect(rev?.content?.taxAppraisal?.costBasis).toBe(420_000);
    },
  );

  it('refuses an effective date more than 60 days before the contribution', async () => {
    const s = await painting({ purpose: 'charitable-donation' });
    // 1 March 2026 less 60 days is 31 December 2025: that day is in, the day before is out.
    const early = await issue(s.id, taxValuation('2025-12-30', taxDetails()));
    expect(early.status).toBe(400);
    expect((early.body as Refusal).errors).toContainEqual({
      path: 'valuation.effectiveDate',
      message:
        'For a charitable donation the effective date can be at most 60 days before the contribution date',
    });
    expect(await revisionsOf(s.id)).toHaveLength(0);
    expect((await issue(s.id, taxValuation('2025-12-31', taxDetails()))).status).toBe(200);
  });

  it("refuses an effective date after the contribution plus the lab's filing window", async () => {
    await setLab({ taxFilingWindowMonths: 2 });
    try {
      const s = await painting({ purpose: 'charitable-donation' });
      const tax = taxDetails({ contributionDate: '2025-11-15' });
      const late = await issue(s.id, taxValuation('2026-01-16', tax));
      expect(late.status).toBe(400);
      expect((late.body as Refusal).errors).toContainEqual({
        path: 'valuation.effectiveDate',
        message:
          'For a charitable donation the effective date can be at most 2 months after the contribution date',
      });
      expect((await issue(s.id, taxValuation('2026-01-15', tax))).status).toBe(200);
    } finally {
      await setLab({ taxFilingWindowMonths: 22 });
    }
  });

  it('tax details sent for another purpose are not kept', async () => {
    const s = await painting({ purpose: 'insurance' });
    expect((await issue(s.id, taxValuation('2026-02-20', taxDetails()))).status).toBe(200);
    expect((await sampleDetail(s.id)).report?.taxAppraisal).toBeNull();
  });
});

describe('re-valuation date', () => {
  it("defaults to the effective date plus the lab's months; an explicit date is kept", async () => {
    const s = await painting();
    expect((await issue(s.id, valuationReport([], { revalueBy: null }))).status).toBe(200);
    expect((await sampleDetail(s.id)).report?.revalueBy).toBe('2029-03-14');
    expect((await sampleDetail(s.id)).revalueBy).toBe('2029-03-14');

    await setLab({ revalueAfterMonths: 12 });
    try {
      const other = await painting();
      expect((await issue(other.id, valuationReport([], { revalueBy: undefined }))).status).toBe(200);
      expect((await sampleDetail(other.id)).revalueBy).toBe('2027-03-14');
    } finally {
      await setLab({ revalueAfterMonths: 36 });
    }
    const explicit = await painting();
    expect((await issue(explicit.id, valuationReport([], { revalueBy: '2027-01-31' }))).status).toBe(200);
    expect((await sampleDetail(explicit.id)).revalueBy).toBe('2027-01-31');
  });

  it('answers revaluationDue from 30 days before the date, in the detail and the own list', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const plus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const due = await painting();
    // A value three years old, to be valued again in 20 days.
    const effectiveDate = addMonths(plus(20), -36);
    expect(effectiveDate < today).toBe(true);
    const body = valuationReport([], {
      valuation: { high: 100, currency: 'EUR', valueType: 'fair-market', effectiveDate, basis: null },
      revalueBy: null,
    });
    expect((await issue(due.id, body)).status).toBe(200);
    const notYet = await painting();
    expect((await issue(notYet.id, valuationReport([], { revalueBy: plus(45) }))).status).toBe(200);

    const [dueDetail, laterDetail] = await Promise.all([sampleDetail(due.id), sampleDetail(notYet.id)]);
    expect(dueDetail).toMatchObject({ revalueBy: plus(20), revaluationDue: true });
    expect(laterDetail).toMatchObject({ revalueBy: plus(45), revaluationDue: false });
    const list = await call(t, 'GET', '/api/samples', { token: owner.token });
    const rows = list.body as { id: number; revaluationDue: boolean }[];
    expect(rows.find((r) => r.id === due.id)?.revaluationDue).toBe(true);
    expect(rows.find((r) => r.id === notYet.id)?.revaluationDue).toBe(false);

    // A withdrawn report is no longer due for anything.
    const code = dueDetail.reportCode ?? '';
    const revoked = await call(t, 'POST', `/api/admin/reports/${code}/revoke`, {
      token: admin.token,
      json: { reason: 'Superseded by a new appraisal' },
    });
    expect(revoked.status).toBe(200);
    expect(await sampleDetail(due.id)).toMatchObject({ revalueBy: null, revaluationDue: false });
  });
});

describe('the re-valuation notice', () => {
  it('is queued with the value, once per date, and mails the owner once (unsubscribable); a withdrawn report is not', async () => {
    const plus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const s = await painting();
    expect((await issue(s.id, valuationReport([], { revalueBy: plus(10) }))).status).toBe(200);
    const queued = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, REVALUATION_QUEUE), eq(jobs.dedupeKey, `revaluation:${s.id}:${plus(10)}`)));
    expect(queued).toHaveLength(1);
    // Re-issuing with the same date queues nothing new.
    expect(
      (await issue(s.id, valuationReport([], { revalueBy: plus(10), summary: '<p>Again.</p>' }))).status,
    ).toBe(200);
    expect(
      await t.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `revaluation:${s.id}:${plus(10)}`)),
    ).toHaveLength(1);

    const deps = { db: t.db, mailer: t.app.deps.mailer };
    const mailsTo = async () =>
      (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, owner.email))).filter(
        (m) => m.kind === 'revaluationDue',
      );
    const before = (await mailsTo()).length;
    expect(await sendRevaluationNotice(deps, { sampleId: s.id, revalueBy: plus(10) })).toBe(true);
    // A second run (two instances, a retry after a crash) sends nothing.
    expect(await sendRevaluationNotice(deps, { sampleId: s.id, revalueBy: plus(10) })).toBe(false);
    const mails = await mailsTo();
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.subject).toContain('valued again');
    expect(JSON.stringify(mails.at(-1)?.headers)).toContain('unsubscribe');
    // A date that is no longer the sample's (a new revision moved it) sends nothing.
    expect(await sendRevaluationNotice(deps, { sampleId: s.id, revalueBy: plus(11) })).toBe(false);
  });
});

describe('what stays private', () => {
  it('verification and the credential carry the intended use and inspection, never a price, value or tax detail', async () => {
    const s = await painting({ purpose: 'charitable-donation' });
    const comparables = [comparableSale(1, { price: 987_654, notes: 'Private note 5550123' })];
    const res = await issue(
      s.id,
      valuationReport([], {
        valuation: {
          high: 777_333,
          currency: 'USD',
          valueType: 'fair-market',
          effectiveDate: '2026-02-20',
          basis: null,
        },
        revalueBy: null,
        comparables,
        taxAppraisal: taxDetails({ appraiserTaxId: 'TAXID-4411', costBasis: '31337' }) as never,
      }),
    );
    expect(res.status).toBe(200);
    const code = (res.body as { reportCode: string }).reportCode;
    const verify = await call(t, 'GET', `/api/reports/verify/${code}`);
    expect(verify.status).toBe(200);
    expect(verify.body).toMatchObject({
      assignment: { intendedUse: appraisalAssignment().intendedUse, inspection: 'in-person-and-laboratory' },
      valuation: null,
    });
    const credential = await call(t, 'GET', `/api/reports/verify/${code}/credential`);
    expect(credential.status).toBe(200);
    const subject = (decodeJwt(credential.text) as { credentialSubject: Record<string, unknown> })
      .credentialSubject;
    expect(subject.intendedUse).toBe(appraisalAssignment().intendedUse);
    for (const text of [leakCheckText(verify.body), leakCheckText(decodeJwt(credential.text))]) {
      for (const secret of [
        '777333',
        '987654',
        '31337',
        'TAXID-4411',
        'Fitzwilliam',
        'Private note',
        'costBasis',
        'taxAppraisal',
        'comparables',
        'donee',
        'intendedUsers',
      ])
        expect(text).not.toContain(secret);
    }
  });
});

describe('lab terms and staff qualifications', () => {
  it('the lab settings answer the texts in force and save new ones, cleaned; staff read the defaults', async () => {
    const got = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(got.body).toMatchObject({
      certificationTemplate: DEFAULT_CERTIFICATION,
      revalueAfterMonths: 36,
      taxFilingWindowMonths: 22,
    });
    const form = new FormData();
    form.set(
      'settings',
      JSON.stringify({
        labName: 'Harwood Laboratory',
        currency: 'USD',
        limitingConditionsTemplate: '<p>Our own conditions.<script>x()</script></p>',
        revalueAfterMonths: 24,
        taxFilingWindowMonths: 12,
      }),
    );
    const saved = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      limitingConditionsTemplate: '<p>Our own conditions.</p>',
      revalueAfterMonths: 24,
      taxFilingWindowMonths: 12,
    });
    const defaults = await call(t, 'GET', '/api/staff/report-defaults', { token: staff.token });
    expect(defaults.status).toBe(200);
    expect(defaults.body).toEqual({
      limitingConditionsTemplate: '<p>Our own conditions.</p>',
      currency: 'USD',
      revalueAfterMonths: 24,
      taxFilingWindowMonths: 12,
    });
    expect((await call(t, 'GET', '/api/staff/report-defaults', { token: owner.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/report-defaults')).status).toBe(401);

    const tooMany = new FormData();
    tooMany.set('settings', JSON.stringify({ labName: 'Harwood Laboratory', revalueAfterMonths: 0 }));
    const refused = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: tooMany });
    expect(refused.status).toBe(400);
    expect((refused.body as Refusal).errors[0]?.path).toBe('revalueAfterMonths');
    await t.db
      .update(labSettings)
      .set({ revalueAfterMonths: 36, taxFilingWindowMonths: 22, limitingConditionsTemplate: null });
  });

  it('staff keep qualifications in their profile, cleaned; a customer may not', async () => {
    const profile = (user: TestUser, extra: Record<string, unknown>) => {
      const form = new FormData();
      form.set('profile', JSON.stringify({ email: user.email, ...extra }));
      return call(t, 'PUT', '/api/users/profile', { token: user.token, form });
    };
    const ok = await profile(staff, {
      firstName: 'Eleanor',
      qualifications: '<p>Accredited member, 20 years<img src=x onerror=alert(1)></p>',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ qualifications: '<p>Accredited member, 20 years</p>' });
    const me = await call(t, 'GET', '/api/auth/user', { token: staff.token });
    expect(me.body).toMatchObject({ qualifications: '<p>Accredited member, 20 years</p>' });
    // Left out, kept.
    const kept = await profile(staff, { firstName: 'Eleanor' });
    expect(kept.body).toMatchObject({ qualifications: '<p>Accredited member, 20 years</p>' });
    const customer = await profile(owner, { qualifications: '<p>Expert</p>' });
    expect(customer.status).toBe(403);
  });
});

describe('the certification kept with the revision', () => {
  it('states the lab text and each signatory with their qualifications, as the PDF; a draft under review has none until approved', async () => {
    await setLab({
      certificationTemplate: '<p>We certify the facts stated. LAB-CERT-41</p>',
      requireReview: false,
    });
    await t.db
      .update(users)
      .set({ firstName: 'Nora', lastName: 'Analyst', qualifications: '<p>Fellow, 22 years. QUAL-NORA</p>' })
      .where(eq(users.id, staff.id));
    try {
      const direct = await painting();
      expect((await issue(direct.id, valuationReport(direct.photoIds))).status).toBe(200);
      expect((await sampleDetail(direct.id)).report?.certification).toEqual({
        text: '<p>We certify the facts stated. LAB-CERT-41</p>',
        signatories: [
          { role: 'analyst', name: 'Nora Analyst', qualifications: '<p>Fellow, 22 years. QUAL-NORA</p>' },
        ],
      });

      // An assay-only report has no certification section, and keeps none.
      const assay = await painting({ photos: 1 });
      const elementsOnly = await issue(assay.id, {
        elements: [{ element: 'Silver', percentage: 92.5, purity: null, quality: null, notes: null }],
      });
      expect(elementsOnly.status).toBe(200);
      expect((await sampleDetail(assay.id)).report?.certification ?? null).toBeNull();

      // With second review: the waiting draft carries none; the approval certifies with both signatories.
      await setLab({ requireReview: true });
      const reviewer = await createUser(t, { role: 'staff', firstName: 'Rory', lastName: 'Second' });
      const reviewed = await painting();
      expect((await issue(reviewed.id, valuationReport(reviewed.photoIds))).status).toBe(200);
      const [waiting] = await revisionsOf(reviewed.id);
      expect(waiting?.state).toBe('awaiting-review');
      expect(waiting?.content?.certification ?? null).toBeNull();
      const approved = await call(t, 'POST', `/api/staff/samples/${reviewed.id}/report/approve`, {
        token: reviewer.token,
      });
      expect(approved.status).toBe(200);
      expect((await sampleDetail(reviewed.id)).report?.certification).toEqual({
        text: '<p>We certify the facts stated. LAB-CERT-41</p>',
        signatories: [
          { role: 'analyst', name: 'Nora Analyst', qualifications: '<p>Fellow, 22 years. QUAL-NORA</p>' },
          { role: 'reviewer', name: 'Rory Second', qualifications: null },
        ],
      });
    } finally {
      await t.db.update(labSettings).set({ certificationTemplate: null, requireReview: false });
      await t.db.update(users).set({ qualifications: null }).where(eq(users.id, staff.id));
    }
  });
});
