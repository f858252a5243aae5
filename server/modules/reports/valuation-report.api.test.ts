import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportContent } from '../../../common/contracts/reports';
import { reportRevisions, samples } from '../../db/schema';
import {
  DOCUMENT_PDF,
  photoFile,
  submissionFields,
  submitSample,
  valuationReport,
} from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// The valuation report's content (docs/product/valuation-report.md): stored with the revision,
// shown on the sample page, and refused with a clear 400 that changes nothing.

let t: TestApp;
let staff: TestUser;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  [staff, owner, other] = await Promise.all([
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
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
};

/** A painting with `photos` photos and one document, assigned to `staff`; answers its id and file ids. */
async function painting(photos = 7, by: TestUser = owner) {
  const files = [
    ...Array.from({ length: photos }, (_, i) => photoFile(`view-${i + 1}.jpg`)),
    { field: 'documents' as const, name: 'provenance.pdf', bytes: DOCUMENT_PDF, type: 'application/pdf' },
  ];
  const id = await submitSample(t, by.token, submissionFields({ category: 'artwork-paintings' }), files);
  await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, id));
  const detail = await sampleDetail(id, by);
  const photoIds = detail.files.filter((f) => f.fileCategory === 'photo').map((f) => f.id);
  const documentId = detail.files.find((f) => f.fileCategory === 'document')?.id ?? 0;
  return { id, photoIds, documentId };
}

async function sampleDetail(id: number, as: TestUser = owner): Promise<Detail> {
  const res = await call(t, 'GET', `/api/samples/${id}`, { token: as.token });
  expect(res.status).toBe(200);
  return res.body as Detail;
}

const issue = (id: number, json: unknown) =>
  call(t, 'POST', `/api/staff/samples/${id}/report`, { token: staff.token, json });

describe('issuing a valuation report', () => {
  it('stores every section with the revision and shows it to the owner, the element table empty', async () => {
    const s = await painting(7);
    const chosen = [s.photoIds[5], s.photoIds[0], s.photoIds[2]] as number[];
    const { elements: _none, ...sent } = valuationReport(chosen);
    const res = await issue(s.id, { elements: [], ...sent });
    expect(res.status).toBe(200);
    // Every section comes back as sent (already clean, amounts in major units), photos in the chosen
    // order; beside them, the certification the PDF was signed with (appraisal-report.api.test.ts).
    const detail = await sampleDetail(s.id);
    const { certification, ...stated } = detail.report ?? {};
    expect(stated).toEqual(sent);
    expect(certification).toMatchObject({ signatories: [{ role: 'analyst' }] });
    expect(detail.report?.photoIds).toEqual(chosen);
    const [rev] = await t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, s.id));
    // Kept exactly, in minor units (pence).
    expect(rev?.content?.photoIds).toEqual(chosen);
    expect(rev?.content?.valuation).toMatchObject({ low: 1_200_000, high: 1_800_000 });
  });

  it('cleans the rich texts, upper-cases the currency and accepts a single value without a range', async () => {
    const s = await painting(1);
    const res = await issue(
      s.id,
      valuationReport([], {
        valuation: {
          high: '2500.05',
          currency: 'chf',
          valueType: 'fair-market',
          effectiveDate: '2025-12-31',
          basis: '<p onclick="x()">Sales <script>alert(1)</script><a href="javascript:x">here</a></p>',
        },
        authenticity: null,
        condition: null,
        identification: { maker: '  ', period: '' },
        summary: '',
      }),
    );
    expect(res.status).toBe(200);
    const { report } = await sampleDetail(s.id);
    expect(report?.valuation).toMatchObject({ low: null, high: 2500.05, currency: 'CHF' });
    expect(report?.valuation?.basis).toBe('<p>Sales here</p>');
    expect(report).toMatchObject({
      authenticity: null,
      condition: null,
      identification: null,
      summary: null,
    });
  });

  it('still needs an element when the report gives no verdict', async () => {
    const s = await painting(1);
    const res = await issue(s.id, { elements: [], summary: '<p>Nice.</p>' });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(
      'Please add at least one analysis element, or a valuation, authenticity or condition verdict',
    );
    expect((await issue(s.id, { elements: [] })).body).toMatchObject({
      message: 'Please add at least one analysis element',
    });
  });
});

describe('refused report content: 400 with the field and a clear message, nothing issued', () => {
  const base = valuationReport();
  const valuation = base.valuation ?? undefined;
  const currencyMessage = 'Enter a three-letter currency code such as EUR, USD or GBP';
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'an unknown currency',
      { valuation: { ...valuation, currency: 'XYZ' } },
      'valuation.currency',
      currencyMessage,
    ],
    [
      'a currency name',
      { valuation: { ...valuation, currency: 'Pounds' } },
      'valuation.currency',
      currencyMessage,
    ],
    [
      'low above high',
      { valuation: { ...valuation, low: 20_000, high: '10000.00' } },
      'valuation.low',
      'Low value cannot be more than the high value',
    ],
    [
      'a negative value',
      { valuation: { ...valuation, low: -1 } },
      'valuation.low',
      'The amount cannot be negative',
    ],
    [
      'a value finer than a penny',
      { valuation: { ...valuation, high: 10.555 } },
      'valuation.high',
      'Use at most 2 decimals',
    ],
    [
      'yen with decimals',
      { valuation: { ...valuation, currency: 'JPY', high: 1000.5 } },
      'valuation.high',
      'This currency has no decimals',
    ],
    [
      'a value that is not a number',
      { valuation: { ...valuation, high: 'lots' } },
      'valuation.high',
      'Enter an amount such as 120 or 120.50',
    ],
    [
      'a future effective date',
      { valuation: { ...valuation, effectiveDate: '2999-01-01' } },
      'valuation.effectiveDate',
      'Effective date cannot be in the future',
    ],
    [
      'an impossible date',
      { valuation: { ...valuation, effectiveDate: '2025-02-30' } },
      'valuation.effectiveDate',
      'Effective date must be a date (YYYY-MM-DD)',
    ],
    [
      'an unknown value type',
      { valuation: { ...valuation, valueType: 'sentimental' } },
      'valuation.valueType',
      'Please choose a value type',
    ],
    [
      'an unknown verdict',
      { authenticity: { verdict: 'probably' } },
      'authenticity.verdict',
      'Please choose an authenticity verdict',
    ],
    [
      'an unknown grade',
      { condition: { grade: 'pristine' } },
      'condition.grade',
      'Please choose a condition grade',
    ],
    ['seven photos', { photoIds: [1, 2, 3, 4, 5, 6, 7] }, 'photoIds', 'A report can show at most 6 photos'],
    ['a photo twice', { photoIds: [1, 1] }, 'photoIds', 'Each photo can appear only once on the report'],
    [
      'an over-long maker',
      { identification: { maker: 'x'.repeat(256) } },
      'identification.maker',
      'At most 255 characters',
    ],
  ];
  it.each(cases)('refuses %s', async (_name, change, path, message) => {
    const s = await painting(1);
    const res = await issue(s.id, { ...base, ...change });
    expect(res.status).toBe(400);
    const body = res.body as { message: string; errors: { path: string; message: string }[] };
    expect(body.message).toBe(message);
    expect(body.errors).toContainEqual({ path, message });
    expect((await sampleDetail(s.id)).reportCode).toBeNull();
  });

  it("refuses another sample's photo and a document as photos", async () => {
    const mine = await painting(1);
    const theirs = await painting(1, other);
    for (const foreign of [theirs.photoIds[0], mine.documentId] as number[]) {
      const res = await issue(mine.id, valuationReport([mine.photoIds[0] as number, foreign]));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        message: "Only this sample's photos can appear on its report",
        errors: [{ path: 'photoIds.1', message: "Only this sample's photos can appear on its report" }],
      });
    }
    expect((await sampleDetail(mine.id)).reportCode).toBeNull();
  });
});

describe('the valuation report PDF', () => {
  it('states the identification, photos, verdicts, value with its type and date, and the whole narrative', async () => {
    const s = await painting(7);
    const chosen = s.photoIds.slice(1) as number[];
    const paragraphs = Array.from(
      { length: 36 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the findings: brushwork, ground and stretcher examined under raking light.</p>`,
    );
    const issued = await issue(
      s.id,
      valuationReport(chosen, { summary: `${paragraphs.join('')}<p>End of findings.</p>` }),
    );
    expect(issued.status).toBe(200);
    const code = (issued.body as { reportCode: string }).reportCode;
    const res = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
    const pdf = res.buffer ?? Buffer.alloc(0);
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    const text = (await parser.getText()).text.replace(/\s+/g, ' ');
    await parser.destroy();
    expect(text).toContain('Valuation Report');
    expect(text).toContain('£12,000.00 – £18,000.00');
    expect(text).toContain('Insurance replacement value in GBP, as at 14 March 2026.');
    expect(text).toMatch(/AUTHENTICITY Authentic/);
    expect(text).toMatch(/CONDITION Very good/);
    expect(text).toContain('John Constable (attributed)');
    expect(text).toContain('Signed lower left "J.C."');
    for (let i = 1; i <= 6; i++) expect(text).toContain(`Photo ${i}: view-${i + 1}.jpg`);
    expect(text).not.toContain('view-1.jpg');
    // Nothing clipped: the last words of a long narrative are there, on a later page.
    expect(text).toContain('Paragraph 36 of the findings');
    expect(text).toContain('End of findings.');
    expect(text).not.toContain('Analysis Results'); // no elements, no table
    if (!requirePrograms([PROGRAMS.pdfinfo], 'valuation report PDF pages')) return;
    const file = join(t.dataDir, 'painting.pdf');
    writeFileSync(file, pdf);
    if (process.env.KEEP_REPORT_PDF) writeFileSync(process.env.KEEP_REPORT_PDF, pdf);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/Tagged:\s+yes/);
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeGreaterThanOrEqual(2);
  });
});
