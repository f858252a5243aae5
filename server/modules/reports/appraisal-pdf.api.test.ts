import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAX_STATEMENT } from '../../../common/domain/appraisal';
import { labSettings, samples, users } from '../../db/schema';
import {
  appraisalAssignment,
  comparableSale,
  photoFile,
  submissionFields,
  submitSample,
  valuationReport,
} from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// The appraisal report's PDF (docs/product/appraisal-report.md): a painting with six photos, twelve
// comparables in three currencies, long texts and a second review, issued and approved; its text has
// every section in order, each price in its own currency, the certification last with both
// signatories' qualifications; it stays tagged and signed. APPRAISAL_PDF_DIR keeps the file and its
// rendered pages (pdftoppm) for a person to look at.

let t: TestApp;
let analyst: TestUser;
let reviewer: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  [analyst, reviewer, owner] = await Promise.all([
    createUser(t, { role: 'staff', firstName: 'Eleanor', lastName: 'Whitfield' }),
    createUser(t, { role: 'staff', firstName: 'Marcus', lastName: 'Okafor' }),
    createUser(t, { role: 'user', firstName: 'Olivia', lastName: 'Bennett' }),
  ]);
  await t.db
    .update(users)
    .set({
      qualifications:
        '<p>MA History of Art; accredited senior appraiser since 2009; 18 years valuing paintings.</p>',
    })
    .where(eq(users.id, analyst.id));
  await t.db
    .update(users)
    .set({
      qualifications: '<p>Certified member of the appraisers’ society; paintings conservator, 12 years.</p>',
    })
    .where(eq(users.id, reviewer.id));
});
afterAll(async () => {
  await t?.close();
});

async function setLab(values: Partial<typeof labSettings.$inferInsert>) {
  const rows = await t.db.update(labSettings).set(values).returning({ id: labSettings.id });
  if (rows.length === 0) await t.db.insert(labSettings).values({ labName: 'Harwood Laboratory', ...values });
}

const run = (bin: string, args: string[]) => {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
};

const long = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${label} ${i + 1}: the canvas, ground and stretcher were examined and compared.</p>`,
  ).join('');

describe('the appraisal report PDF', () => {
  it('a painting with six photos, twelve comparables and a second review states every part, certification last', async () => {
    await setLab({ requireReview: true });
    const id = await submitSample(
      t,
      owner.token,
      submissionFields({ category: 'artwork-paintings', purposeOfValuation: 'charitable-donation' }),
      Array.from({ length: 6 }, (_, i) => photoFile(`view-${i + 1}.jpg`)),
    );
    await t.db.update(samples).set({ assignedStaffId: analyst.id }).where(eq(samples.id, id));
    const detail = (await call(t, 'GET', `/api/samples/${id}`, { token: owner.token })).body as {
      files: { id: number; fileCategory: string }[];
    };
    const photoIds = detail.files.filter((f) => f.fileCategory === 'photo').map((f) => f.id);
    const comparables = Array.from({ length: 12 }, (_, i) =>
      comparableSale(i + 1, {
        currency: ['GBP', 'USD', 'JPY'][i % 3] as string,
        price: i % 3 === 2 ? 2_150_000 + i : 10_000 + i * 1_250,
        photoFileId: i === 0 ? (photoIds[2] ?? null) : null,
        notes:
          i === 11 ? 'The last comparable: a smaller canvas by the same hand, sold with its frame.' : null,
      }),
    );
    const body = valuationReport(photoIds, {
      valuation: {
        low: 12_000,
        high: 18_000,
        currency: 'USD',
        valueType: 'fair-market',
        effectiveDate: '2026-02-20',
        basis: '<p>Comparable sales at auction, 2024–2026.</p>',
      },
      revalueBy: null,
      assignment: appraisalAssignment({
        intendedUse: 'To support an income-tax deduction for the gift of the painting to a museum.',
        intendedUsers: 'The client, their tax adviser and the tax authority',
        valueDefinition: '<p>Fair market value: the price between a willing buyer and a willing seller.</p>',
        scopeOfWork: long('Research step', 14),
        limitingConditions: `${long('Condition', 10)}<p>End of the limiting conditions.</p>`,
        hypotheticalConditions: '<p>As if the old retouching in the sky had been removed.</p>',
      }),
      comparables,
      taxAppraisal: {
        donee: 'Fitzwilliam Museum, Cambridge',
        contributionDate: '2026-03-01',
        dateAcquired: '1998-06-02',
        howAcquired: 'Purchased at auction',
        costBasis: '4200',
        appraiserTaxId: '98-7654321',
      },
    });
    const issued = await call(t, 'POST', `/api/staff/samples/${id}/report`, {
      token: analyst.token,
      json: body,
    });
    expect(issued.status).toBe(200);
    expect((issued.body as { state: string }).state).toBe('awaiting-review');
    const approved = await call(t, 'POST', `/api/staff/samples/${id}/report/approve`, {
      token: reviewer.token,
    });
    expect(approved.status).toBe(200);
    await setLab({ requireReview: false });
    const code = (approved.body as { reportCode: string }).reportCode;

    const res = await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token });
    expect(res.status).toBe(200);
    const pdf = res.buffer ?? Buffer.alloc(0);
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    const text = (await parser.getText()).text.replace(/\s+/g, ' ');
    await parser.destroy();

    // In the order an appraiser signs it: cover, identification and photos, opinion, value and its
    // definition, comparables, findings, scope, assumptions and conditions, tax statement, certification.
    const order = [
      'Appraisal',
      'Olivia Bennett',
      'Fair market value',
      'To support an income-tax deduction for the gift of the painting to a museum.',
      '20 February 2026',
      'The client, their tax adviser and the tax authority',
      'Identification',
      'Photo 6: view-6.jpg',
      'Opinion',
      'US$12,000.00 – US$18,000.00',
      'DEFINITION OF VALUE',
      'Fair market value: the price between a willing buyer and a willing seller.',
      'Comparable Sales',
      'Findings',
      'Scope of Work',
      'In person, with laboratory examination',
      'Research step 14',
      'Assumptions and Conditions',
      'The provenance documents supplied by the client are genuine.',
      'As if the old retouching in the sky had been removed.',
      'End of the limiting conditions.',
      'Appraisal for Income-Tax Purposes',
      TAX_STATEMENT,
      'Fitzwilliam Museum, Cambridge',
      '98-7654321',
      'Certification',
      'we have no present or prospective interest in the item appraised',
      'QUALIFICATIONS OF ELEANOR WHITFIELD (ANALYST)',
      'accredited senior appraiser since 2009',
      'QUALIFICATIONS OF MARCUS OKAFOR (REVIEWER)',
      'paintings conservator, 12 years',
      'ANALYZED BY',
      'REVIEWED BY',
      'VERIFY THIS REPORT',
    ];
    let at = 0;
    for (const part of order) {
      const found = text.indexOf(part, at);
      expect(found, `"${part}" after position ${at}`).toBeGreaterThanOrEqual(0);
      at = found + part.length;
    }
    // Each price in its own currency, never converted; all twelve rows, the last one's notes too.
    expect(text).toContain('£10,000.00');
    expect(text).toContain('US$11,250.00');
    expect(text).toContain('¥2,150,002');
    expect(text).toContain('£13,750.00');
    expect(text).toContain('The last comparable: a smaller canvas by the same hand');
    expect(text).toContain('Photo: view-3.jpg');
    expect(text).toContain('US$4,200.00');
    // Every page numbered, none clipped.
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThanOrEqual(3);
    for (let p = 1; p <= pages; p++) expect(text).toContain(`Page ${p} of ${pages}`);

    if (!requirePrograms([PROGRAMS.pdfinfo, PROGRAMS.pdfsig], 'appraisal PDF: tagged and signed')) return;
    const dir = process.env.APPRAISAL_PDF_DIR ?? join(t.dataDir, 'appraisal-pdf');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'appraisal.pdf');
    writeFileSync(file, pdf);
    expect(run('pdfinfo', [file])).toMatch(/Tagged:\s+yes/);
    const sig = run('pdfsig', [file]);
    expect(sig).toContain('Signature is Valid');
    expect(sig).toContain('Total document signed');
    if (process.env.APPRAISAL_PDF_DIR && requirePrograms([PROGRAMS.pdftoppm], 'appraisal PDF pages'))
      run('pdftoppm', ['-r', '60', '-png', file, join(dir, 'page')]);
  }, 120_000);
});
