import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES } from '../../../common/contracts/review';
import { labSettings, mailOutbox, reportRevisions, samples } from '../../db/schema';
import {
  element,
  insertSample,
  photoFile,
  submissionFields,
  submitSample,
  comparableSale,
  valuationReport,
} from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { signCredential } from '../verification/credential';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// The second review (docs/product/valuation-report.md, "Second review"): with the lab setting on, an
// issued report waits for another expert; nothing public changes until it is approved.

let t: TestApp;
let admin: TestUser;
let author: TestUser;
let reviewer: TestUser;
let owner: TestUser;

const hasPdfText = requirePrograms([PROGRAMS.pdftotext], 'reviewed report PDF text checks');

beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  [admin, author, reviewer, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Ada', lastName: 'Author' }),
    createUser(t, { role: 'staff', firstName: 'Rita', lastName: 'Reviewer' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function setRequireReview(on: boolean) {
  const [row] = await t.db.select().from(labSettings);
  if (row) await t.db.update(labSettings).set({ requireReview: on });
  else await t.db.insert(labSettings).values({ requireReview: on });
}

const newSample = async () =>
  (await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: author.id })).id;

const issue = (id: number, json: unknown, as: TestUser = author) =>
  call(t, 'POST', `/api/staff/samples/${id}/report`, { token: as.token, json });
const approve = (id: number, as: TestUser) =>
  call(t, 'POST', `/api/staff/samples/${id}/report/approve`, { token: as.token });
const reject = (id: number, as: TestUser, json: unknown) =>
  call(t, 'POST', `/api/staff/samples/${id}/report/reject`, { token: as.token, json });
const review = (id: number, as: TestUser) =>
  call(t, 'GET', `/api/staff/samples/${id}/report/review`, { token: as.token });
const history = (id: number, as: TestUser) =>
  call(t, 'GET', `/api/staff/samples/${id}/report/review-history`, { token: as.token });
const queue = async (as: TestUser) => {
  const res = await call(t, 'GET', '/api/staff/reviews', { token: as.token });
  expect(res.status).toBe(200);
  return (res.body as { sampleId: number }[]).map((r) => r.sampleId);
};
const verify = (code: string) => call(t, 'GET', `/api/reports/verify/${code}`);
/** The current revision's credential, its subject as signed, and the public check's answer. */
const credential = async (code: string) => {
  const res = await call(t, 'GET', `/api/reports/verify/${code}/credential`);
  expect(res.status).toBe(200);
  const check = await call(t, 'POST', '/api/reports/verify-credential', { json: { credential: res.text } });
  expect(check.status).toBe(200);
  const signed = decodeJwt(res.text) as { credentialSubject: Record<string, unknown> };
  return { subject: signed.credentialSubject, check: check.body as { genuine: boolean; subject: unknown } };
};
const ownerView = async (id: number) => {
  const res = await call(t, 'GET', `/api/samples/${id}`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body as {
    reportCode: string | null;
    reportGenerated: boolean;
    report: unknown;
    reportElements: { element: string }[];
  };
};
const reportMails = async () =>
  (
    await t.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, owner.email), eq(mailOutbox.kind, 'reportIssued')))
  ).length;

describe('second review off (the default)', () => {
  it('issues at once, as before', async () => {
    await setRequireReview(false);
    const id = await newSample();
    const res = await issue(id, { elements: [element('Silver', 92.5)] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'issued',
      action: 'generated',
      message: 'Report generated successfully',
    });
    const code = (res.body as { reportCode: string }).reportCode;
    const v = await verify(code);
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ revision: 1, review: null });
    expect((await review(id, reviewer)).body).toBeNull();
    expect((await approve(id, reviewer)).status).toBe(409);
    expect((await history(id, reviewer)).body).toEqual([]);

    // Not reviewed: the credential names the analyst alone.
    const vc = await credential(code);
    expect(vc.subject.analyzedBy).toBe('Ada Author');
    expect(vc.subject).not.toHaveProperty('reviewedBy');
    expect(vc.check).toMatchObject({ genuine: true, subject: { analyzedBy: 'Ada Author' } });
  });

  it('the credential keeps naming the analyst of the PDF after the sample is reassigned', async () => {
    await setRequireReview(false);
    const id = await newSample();
    const res = await issue(id, { elements: [element('Silver', 90)] });
    expect(res.status).toBe(200);
    const code = (res.body as { reportCode: string }).reportCode;
    const pdfText = async () => {
      const pdf = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
      return pdf.text;
    };
    const before = await pdfText();
    const assign = await call(t, 'POST', `/api/admin/samples/${id}/assign`, {
      token: admin.token,
      json: { staffId: reviewer.id },
    });
    expect(assign.status).toBe(200);
    // The PDF is the one issued (its bytes do not change), and so is the name its credential states.
    expect(await pdfText()).toBe(before);
    const vc = await credential(code);
    expect(vc.subject.analyzedBy).toBe('Ada Author');
    expect(vc.check).toMatchObject({ genuine: true, subject: { analyzedBy: 'Ada Author' } });

    // A revision issued before the analyst was kept falls back to the earlier rule: the sample's
    // analyst as it is now.
    await t.db.update(reportRevisions).set({ analyzedBy: null }).where(eq(reportRevisions.reportCode, code));
    expect((await credential(code)).subject.analyzedBy).toBe('Rita Reviewer');
  });

  it('a credential made before the sign-off names existed still checks', async () => {
    const id = await newSample();
    const res = await issue(id, { elements: [element('Silver', 80)] });
    const { reportCode, sha256, issuedAt } = res.body as {
      reportCode: string;
      sha256: string;
      issuedAt: string;
    };
    const old = await signCredential(
      t.app.deps.keys.credentials,
      { url: 'http://lab.test', name: 'Lab' },
      {
        reportCode,
        revision: 1,
        item: 'Old',
        category: 'Other',
        issuedAt: new Date(issuedAt),
        pdfSha256: sha256,
      },
    );
    expect(decodeJwt(old).credentialSubject).not.toHaveProperty('analyzedBy');
    const check = await call(t, 'POST', '/api/reports/verify-credential', { json: { credential: old } });
    expect(check.body).toMatchObject({ genuine: true, status: 'current', subject: { reportCode } });
    expect((check.body as { subject: object }).subject).not.toHaveProperty('analyzedBy');
  });
});

/** The sample's status as its owner reads it, and its history's last note. */
const statusOf = async (id: number) => {
  const res = await call(t, 'GET', `/api/samples/${id}`, { token: owner.token });
  const body = res.body as { status: string; statusHistory: { status: string; comment: string | null }[] };
  return { status: body.status, last: body.statusHistory.at(-1) };
};
const statusMails = async (id: number) =>
  (
    await t.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, owner.email), eq(mailOutbox.kind, 'statusChanged')))
  ).filter((m) => m.subject.includes(`VAL-${String(id).padStart(4, '0')}`)).length;

describe("'Also mark the sample Completed' travels with the report", () => {
  it('review off: one call issues the report and completes the sample, with its history, mail and audit', async () => {
    await setRequireReview(false);
    const id = await newSample();
    const res = await issue(id, { elements: [element('Silver', 92.5)], markCompleted: true });
    expect(res.status).toBe(200);
    expect(await statusOf(id)).toMatchObject({
      status: 'completed',
      last: { status: 'completed', comment: 'Report issued' },
    });
    expect(await statusMails(id)).toBe(1);
    // Without the tick the status stays.
    const other = await newSample();
    expect((await issue(other, { elements: [element('Silver', 92.5)] })).status).toBe(200);
    expect((await statusOf(other)).status).toBe('analysis');
    // A wrong type is refused and nothing is issued.
    const third = await newSample();
    const bad = await issue(third, { elements: [element('Silver', 92.5)], markCompleted: 'yes' });
    expect(bad.status).toBe(400);
    expect((await ownerView(third)).reportCode).toBeNull();
  });

  it('review on: the sample stays open while the report waits, and is completed by the approval', async () => {
    await setRequireReview(true);
    try {
      const id = await newSample();
      const res = await issue(id, { elements: [element('Gold', 75)], markCompleted: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ state: 'awaiting-review' });
      expect((await statusOf(id)).status).toBe('analysis');
      expect(await statusMails(id)).toBe(0);
      expect((await approve(id, reviewer)).status).toBe(200);
      const after = await statusOf(id);
      expect(after).toMatchObject({ status: 'completed', last: { comment: 'Report issued' } });
      expect(await statusMails(id)).toBe(1);
      const view = await ownerView(id);
      expect(view.reportGenerated).toBe(true);
      // Approving a report whose author did not ask leaves the status alone.
      const plain = await newSample();
      expect((await issue(plain, { elements: [element('Gold', 75)] })).status).toBe(200);
      expect((await approve(plain, reviewer)).status).toBe(200);
      expect((await statusOf(plain)).status).toBe('analysis');
    } finally {
      await setRequireReview(false);
    }
  });
});

describe('second review on', () => {
  beforeAll(() => setRequireReview(true));

  it('a first report waits unseen, goes back with a comment, and is public only once another expert approves it', async () => {
    const id = await newSample();
    const mailsBefore = await reportMails();
    const sent = await issue(id, { elements: [element('Gold', 75)] });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      state: 'awaiting-review',
      revision: 1,
      action: 'generated',
      message: REVIEW_MESSAGES.submitted,
    });
    const code = (sent.body as { reportCode: string }).reportCode;

    // Nothing public: the code does not verify, the owner sees no code, no report, no elements, no mail.
    expect((await verify(code)).status).toBe(404);
    expect((await call(t, 'GET', `/api/reports/verify/${code}/credential`)).status).toBe(404);
    expect((await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token })).status).toBe(404);
    expect(await ownerView(id)).toMatchObject({
      reportCode: null,
      reportGenerated: false,
      report: null,
      reportElements: [],
    });
    expect(await reportMails()).toBe(mailsBefore);

    // Issuing again while it waits is refused; the author may not approve their own work.
    expect((await issue(id, { elements: [element('Gold', 75)] })).status).toBe(409);
    const own = await approve(id, author);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: REVIEW_MESSAGES.ownRevision });
    expect((await reject(id, author, { comment: 'Fine by me' })).status).toBe(403);

    // The reviewer's queue has it; the author's does not.
    expect(await queue(reviewer)).toContain(id);
    expect(await queue(admin)).toContain(id);
    expect(await queue(author)).not.toContain(id);
    const pending = await review(id, reviewer);
    expect(pending.body).toMatchObject({
      state: 'awaiting-review',
      reportCode: code,
      revision: 1,
      author: { id: author.id, firstName: 'Ada', lastName: 'Author' },
      canReview: true,
      elements: [{ element: 'Gold', percentage: 75 }],
    });
    expect((await review(id, author)).body).toMatchObject({ canReview: false });

    // A send-back needs a comment of sane length.
    for (const bad of [{}, { comment: '   ' }, { comment: 'x'.repeat(2001) }, { comment: 42 }]) {
      const res = await reject(id, reviewer, bad);
      expect(res.status).toBe(400);
    }
    const back = await reject(id, reviewer, { comment: 'Please state the purity.' });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      state: 'returned',
      comment: 'Please state the purity.',
      reviewer: { id: reviewer.id, firstName: 'Rita' },
      canReview: false,
    });
    expect((await review(id, author)).body).toMatchObject({
      state: 'returned',
      comment: 'Please state the purity.',
    });
    expect(await queue(reviewer)).not.toContain(id);
    expect((await approve(id, reviewer)).status).toBe(409);
    expect((await verify(code)).status).toBe(404);
    expect((await ownerView(id)).reportCode).toBeNull();

    // The author issues again: the same code and revision number wait for review once more.
    const again = await issue(id, { elements: [element('Gold', 75, { purity: '18K' })] });
    expect(again.body).toMatchObject({ state: 'awaiting-review', reportCode: code, revision: 1 });
    const rows = await t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, id));
    expect(rows).toHaveLength(1);

    // The send-back stays in the history after the re-issue replaced the returned draft.
    expect((await history(id, author)).body).toMatchObject([
      { decision: 'returned', revision: 1, comment: 'Please state the purity.' },
    ]);

    const ok = await approve(id, reviewer);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      state: 'issued',
      reportCode: code,
      revision: 1,
      message: REVIEW_MESSAGES.approved,
    });
    const v = await verify(code);
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({
      revision: 1,
      review: {
        analyzedBy: { firstName: 'Ada', lastName: 'Author' },
        reviewedBy: { firstName: 'Rita', lastName: 'Reviewer' },
      },
      reportElements: [{ element: 'Gold', purity: '18K' }],
    });
    expect(await ownerView(id)).toMatchObject({ reportCode: code, reportGenerated: true });
    expect(await reportMails()).toBe(mailsBefore + 1);

    // Every decision, newest first, for the lab only: the owner never reads the reviewer's comments.
    const decisions = await history(id, admin);
    expect(decisions.status).toBe(200);
    expect(decisions.body).toMatchObject([
      {
        decision: 'approved',
        reportCode: code,
        revision: 1,
        reviewer: { id: reviewer.id, firstName: 'Rita', lastName: 'Reviewer' },
        author: { id: author.id, firstName: 'Ada' },
        comment: null,
      },
      {
        decision: 'returned',
        reportCode: code,
        revision: 1,
        reviewer: { id: reviewer.id, firstName: 'Rita' },
        author: { id: author.id, firstName: 'Ada' },
        comment: 'Please state the purity.',
      },
    ]);
    const [approvedAt, returnedAt] = (decisions.body as { decidedAt: string }[]).map((d) =>
      Date.parse(d.decidedAt),
    );
    expect(approvedAt).toBeGreaterThanOrEqual(returnedAt ?? Infinity);
    expect((await history(id, reviewer)).body).toEqual(decisions.body);
    const refused = await history(id, owner);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('purity');
    expect((await call(t, 'GET', `/api/staff/samples/${id}/report/review-history`)).status).toBe(401);
    expect((await history(999_999, admin)).status).toBe(404);
    expect(
      JSON.stringify((await call(t, 'GET', `/api/samples/${id}`, { token: owner.token })).body),
    ).not.toContain('Please state the purity');
    const vc = await credential(code);
    expect(vc.subject).toMatchObject({ analyzedBy: 'Ada Author', reviewedBy: 'Rita Reviewer' });
    expect(vc.check).toMatchObject({
      genuine: true,
      subject: { analyzedBy: 'Ada Author', reviewedBy: 'Rita Reviewer' },
    });
    expect((await review(id, reviewer)).body).toBeNull();
    expect((await approve(id, reviewer)).status).toBe(409);

    const pdf = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
    expect(pdf.status).toBe(200);
    if (!hasPdfText) return;
    const file = join(t.dataDir, `reviewed-${code}.pdf`);
    writeFileSync(file, pdf.buffer ?? Buffer.alloc(0));
    const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
    expect(text).toContain('ANALYZED BY');
    expect(text).toContain('REVIEWED BY');
    expect(text).toContain('Ada Author');
    expect(text).toContain('Rita Reviewer');
    expect(text).not.toContain('Awaiting review');
  });

  it('a sent-back draft is kept whole for its author (every part, photos in order), and every send-back stays on record', async () => {
    const s = await submitSample(t, owner.token, submissionFields({ category: 'artwork-paintings' }), [
      photoFile('front.jpg'),
      photoFile('back.jpg'),
    ]);
    await t.db.update(samples).set({ assignedStaffId: author.id }).where(eq(samples.id, s));
    const detail = await call(t, 'GET', `/api/samples/${s}`, { token: author.token });
    const photoIds = (detail.body as { files: { id: number; fileCategory: string }[] }).files
      .filter((f) => f.fileCategory === 'photo')
      .map((f) => f.id);
    expect(photoIds).toHaveLength(2);
    // The photos in the author's order (back first), a comparable with its own photo, notes with a heading.
    const sent = valuationReport([...photoIds].reverse(), {
      elements: [
        element('Gold', 75, {
          purity: '18K',
          quality: 'Good',
          notes: '<h2>Assay</h2><p>XRF, three spots.</p>',
        }),
      ],
      comparables: [comparableSale(1, { photoFileId: photoIds[0] ?? null, price: 12_500 })],
    });
    expect((await issue(s, { ...sent, markCompleted: true })).status).toBe(200);
    const waiting = (await review(s, reviewer)).body as Record<string, unknown>;
    expect(waiting).toMatchObject({ state: 'awaiting-review', completeOnApproval: true, canReview: true });
    expect((await reject(s, reviewer, { comment: 'Round one: state the assay method.' })).status).toBe(200);

    // What the author reads back is what they sent: every statement, the elements and the photos' order.
    const returned = (await review(s, author)).body as {
      state: string;
      comment: string;
      completeOnApproval: boolean;
      content: Record<string, unknown>;
      elements: unknown[];
    };
    expect(returned).toMatchObject({
      state: 'returned',
      comment: 'Round one: state the assay method.',
      completeOnApproval: true,
    });
    expect(returned.content).toMatchObject({
      identification: sent.identification,
      authenticity: sent.authenticity,
      condition: sent.condition,
      valuation: { ...sent.valuation, low: 12_000, high: 18_000 },
      summary: sent.summary,
      photoIds: [...photoIds].reverse(),
      assignment: sent.assignment,
      comparables: [{ ...comparableSale(1), photoFileId: photoIds[0], price: 12_500 }],
      revalueBy: '2029-03-14',
    });
    expect(returned.elements).toEqual([
      {
        element: 'Gold',
        percentage: 75,
        purity: '18K',
        quality: 'Good',
        notes: '<h2>Assay</h2><p>XRF, three spots.</p>',
      },
    ]);
    // The owner learns nothing of it.
    expect(JSON.stringify(await ownerView(s))).not.toContain('Round one');

    // The draft's PDF, for the lab only: drawn as the approval would print it, marked as a draft, unsigned.
    const draftPdf = await call(t, 'GET', `/api/staff/samples/${s}/report/review/pdf`, {
      token: author.token,
    });
    expect(draftPdf.status).toBe(200);
    expect(draftPdf.headers.get('content-type')).toBe('application/pdf');
    expect(draftPdf.headers.get('cache-control')).toBe('private, no-store');
    expect(draftPdf.buffer?.includes('/ByteRange')).toBe(false);
    expect(
      (await call(t, 'GET', `/api/staff/samples/${s}/report/review/pdf`, { token: owner.token })).status,
    ).toBe(403);
    expect((await call(t, 'GET', `/api/staff/samples/${s}/report/review/pdf`)).status).toBe(401);
    if (hasPdfText) {
      const file = join(t.dataDir, `draft-${s}.pdf`);
      writeFileSync(file, draftPdf.buffer ?? Buffer.alloc(0));
      const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
      for (const part of [
        'DRAFT',
        'John Constable (attributed)',
        'Awaiting review',
        'XRF, three spots.',
        'Photo 1: back.jpg',
      ])
        expect(text).toContain(part);
    }

    // A second round: the author changes one field, the reviewer sends it back again, then approves.
    const changed = { ...sent, summary: '<p>Assay by XRF at three spots.</p>' };
    expect((await issue(s, changed)).body).toMatchObject({ state: 'awaiting-review', revision: 1 });
    expect((await review(s, reviewer)).body).toMatchObject({
      state: 'awaiting-review',
      completeOnApproval: false,
      content: { summary: '<p>Assay by XRF at three spots.</p>', photoIds: [...photoIds].reverse() },
    });
    expect((await reject(s, reviewer, { comment: 'Round two: name the spots.' })).status).toBe(200);
    expect((await review(s, author)).body).toMatchObject({
      state: 'returned',
      comment: 'Round two: name the spots.',
      content: { summary: '<p>Assay by XRF at three spots.</p>' },
    });
    expect((await issue(s, changed)).status).toBe(200);
    expect((await approve(s, reviewer)).status).toBe(200);
    const decisions = (await history(s, author)).body as { decision: string; comment: string | null }[];
    expect(decisions.map((d) => [d.decision, d.comment])).toEqual([
      ['approved', null],
      ['returned', 'Round two: name the spots.'],
      ['returned', 'Round one: state the assay method.'],
    ]);
    expect((await review(s, author)).body).toBeNull();
    // Nothing waits any more: no draft to draw.
    const none = await call(t, 'GET', `/api/staff/samples/${s}/report/review/pdf`, { token: reviewer.token });
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ message: REVIEW_MESSAGES.nothingAwaiting });
  });

  it('a re-issue waits while the previous revision stays public, unchanged, until an admin approves it', async () => {
    await setRequireReview(false);
    const s = await submitSample(t, owner.token, submissionFields({ category: 'artwork-paintings' }), [
      photoFile('front.jpg'),
    ]);
    await t.db.update(samples).set({ assignedStaffId: author.id }).where(eq(samples.id, s));
    const first = await issue(s, { elements: [element('Silver', 92.5)] });
    const code = (first.body as { reportCode: string }).reportCode;
    await setRequireReview(true);
    const before = await ownerView(s);
    const pdfBefore = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
    const mailsBefore = await reportMails();

    const second = await issue(s, valuationReport([]));
    expect(second.body).toMatchObject({ state: 'awaiting-review', revision: 2, action: 'updated' });
    const v = await verify(code);
    expect(v.body).toMatchObject({
      revision: 1,
      review: null,
      authenticity: null,
      reportElements: [{ element: 'Silver' }],
    });
    expect(await ownerView(s)).toEqual(before);
    const pdfNow = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
    expect(pdfNow.headers.get('x-report-revision')).toBe('1');
    expect(pdfNow.buffer?.equals(pdfBefore.buffer ?? Buffer.alloc(0))).toBe(true);
    expect(await reportMails()).toBe(mailsBefore);

    const ok = await approve(s, admin);
    expect(ok.status).toBe(200);
    const after = await verify(code);
    expect(after.body).toMatchObject({
      revision: 2,
      authenticity: { verdict: 'authentic' },
      reportElements: [],
      review: { analyzedBy: { firstName: 'Ada' }, reviewedBy: { firstName: admin.firstName } },
    });
    expect((await ownerView(s)).report).toMatchObject({ authenticity: { verdict: 'authentic' } });
    expect(await reportMails()).toBe(mailsBefore + 1);
  });

  it('the setting is saved and read through the lab settings', async () => {
    const form = new FormData();
    form.append('settings', JSON.stringify({ labName: 'Review Lab', requireReview: false }));
    const off = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form });
    expect(off.body).toMatchObject({ requireReview: false });
    const bad = new FormData();
    bad.append('settings', JSON.stringify({ labName: 'Review Lab', requireReview: 'yes' }));
    expect((await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: bad })).status).toBe(400);
    const on = new FormData();
    on.append('settings', JSON.stringify({ labName: 'Review Lab', requireReview: true }));
    expect((await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: on })).body).toMatchObject(
      {
        requireReview: true,
      },
    );
    const id = await newSample();
    expect((await issue(id, { elements: [element('Copper', 10)] })).body).toMatchObject({
      state: 'awaiting-review',
    });
  });
});
