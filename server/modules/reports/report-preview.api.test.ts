import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_PREVIEW_BAND } from '../../../common/domain/reports';
import { mailOutbox, reportRevisions, samples } from '../../db/schema';
import { element, insertSample, valuationReport } from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// The staff-only preview of a report (docs/product/valuation-report.md, "Preview"): the PDF a draft
// would issue, marked as a draft on every page, unsigned, and nothing stored.

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let otherStaff: TestUser;
let owner: TestUser;

const hasPdfText = requirePrograms([PROGRAMS.pdftotext], 'report preview PDF text checks');

beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  [admin, staff, otherStaff, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Ada', lastName: 'Author' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

const preview = (id: number, json: unknown, token?: string) =>
  call(t, 'POST', `/api/staff/samples/${id}/report/preview`, { token, json });

/** Every stored file under DATA_DIR's file store, and the rows issuing would have written. */
const footprint = async (id: number) => ({
  files: existsSync(t.filesDir) ? readdirSync(t.filesDir, { recursive: true }).length : 0,
  revisions: (await t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, id))).length,
  mails: (await t.db.select().from(mailOutbox)).length,
  sample: (await t.db.select().from(samples).where(eq(samples.id, id)))[0],
});

/** The text of each page of a PDF (pdftotext separates pages with a form feed). */
function pagesOf(name: string, pdf: Buffer): string[] {
  const file = join(t.dataDir, name);
  writeFileSync(file, pdf);
  const out = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
  return out.split('\f').filter((page) => page.trim());
}

describe('report preview', () => {
  it('answers the draft PDF, marked on every page, unsigned, and stores nothing', async () => {
    const id = (await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id })).id;
    const before = await footprint(id);
    const long = `<p>${'The canvas shows a consistent craquelure across the sky and the foreground. '.repeat(60)}</p>`;
    const res = await preview(id, { ...valuationReport([]), summary: long }, staff.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.headers.get('content-disposition')).toMatch(
      /^inline; filename="Report-preview-VAL-\d{4}\.pdf"$/,
    );
    const pdf = res.buffer ?? Buffer.alloc(0);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Not signed: no signature dictionary at all.
    expect(pdf.includes('/ByteRange')).toBe(false);
    expect(pdf.includes('adbe.pkcs7')).toBe(false);

    // Nothing issued, stored, drawn or mailed.
    expect(await footprint(id)).toEqual(before);
    expect(before.sample?.reportCode).toBeNull();
    expect(before.sample?.reportGeneratedAt).toBeNull();

    if (!hasPdfText) return;
    const pages = pagesOf(`preview-${id}.pdf`, pdf);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page).toContain(REPORT_PREVIEW_BAND);
    const text = pages.join('\n');
    expect(text).toContain('not signed, not valid as a report');
    expect(text).toContain('£12,000.00 – £18,000.00');
    expect(text).toContain('Insurance replacement value');
    expect(text).toContain('DRAFT');
    expect(text).toContain('Ada Author');
  });

  it('shows the code and next revision of a sample that has a report, and leaves the public one alone', async () => {
    const id = (await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id })).id;
    const issued = await call(t, 'POST', `/api/staff/samples/${id}/report`, {
      token: staff.token,
      json: { elements: [element('Silver', 92.5)] },
    });
    const code = (issued.body as { reportCode: string }).reportCode;
    const before = await footprint(id);
    const res = await preview(id, { elements: [element('Gold', 75)] }, admin.token);
    expect(res.status).toBe(200);
    expect(await footprint(id)).toEqual(before);
    const verified = await call(t, 'GET', `/api/reports/verify/${code}`);
    expect(verified.body).toMatchObject({ revision: 1, reportElements: [{ element: 'Silver' }] });
    if (!hasPdfText) return;
    const text = pagesOf(`preview-${code}.pdf`, res.buffer ?? Buffer.alloc(0)).join('\n');
    expect(text).toContain(code);
    expect(text).toContain('Revision 2');
    expect(text).toContain('Gold');
    expect(text).toContain(REPORT_PREVIEW_BAND);
  });

  it('refuses visitors, customers (even the owner) and staff not assigned; checks the draft like issuing', async () => {
    const id = (await insertSample(t.db, owner, { status: 'analysis', assignedStaffId: staff.id })).id;
    const body = { elements: [element('Silver', 92.5)] };
    const before = await footprint(id);
    expect((await preview(id, body)).status).toBe(401);
    const customer = await preview(id, body, owner.token);
    expect(customer.status).toBe(403);
    expect(customer.headers.get('content-type')).toContain('application/json');
    expect((await preview(id, body, otherStaff.token)).status).toBe(403);
    expect((await preview(999_999, body, admin.token)).status).toBe(404);
    const bad = await preview(
      id,
      valuationReport([], {
        valuation: {
          low: 20_000,
          high: 10_000,
          currency: 'GBP',
          valueType: 'fair-market',
          effectiveDate: '2026-01-01',
        },
      }),
      staff.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: [{ path: 'valuation.low' }] });
    expect((await preview(id, { elements: [] }, staff.token)).status).toBe(400);
    expect(await footprint(id)).toEqual(before);
  });
});
