import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReportContent } from '../../../common/contracts/reports';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { MAX_EMPTY, renderReportPdf, reportPageEnds, type ReportPdfInput } from './report-pdf';

// The report's pagination (docs/product/signed-reports.md): the signatures never stand alone on a
// page; when they do not fit under the last text, the last lines go over with them (two at least,
// and two stay), or, when that would leave more than a fifth of the page empty, the signatures stay
// under the text and the verification block starts the last page. No page but the last ends with
// a large gap.

const hasPdfText = requirePrograms([PROGRAMS.pdftotext], 'report PDF pagination checks');
const dir = mkdtempSync(join(tmpdir(), 'report-layout-'));

const paragraphs = (label: string, n: number, sentences = 1) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${label} ${i + 1}: ${'the surface was examined under magnification and compared. '.repeat(sentences)}</p>`,
  ).join('');

function report(summaryParagraphs: number, reviewed: boolean, sentences = 1): ReportPdfInput {
  const content: ReportContent = {
    valuation: {
      low: 1_200_000,
      high: 1_800_000,
      currency: 'USD',
      valueType: 'insurance-replacement',
      effectiveDate: '2026-03-14',
      basis: paragraphs('Basis', 2),
    },
    authenticity: { verdict: 'authentic', rationale: paragraphs('Rationale', 3) },
    condition: { grade: 'very-good', notes: paragraphs('Condition', 2) },
    identification: {
      maker: 'Paul Storr',
      period: '1815',
      origin: 'London',
      marks: 'Lion passant',
      dimensions: '30 x 20 cm',
      materials: 'Sterling silver',
    },
    summary: summaryParagraphs ? paragraphs('Summary', summaryParagraphs, sentences) : null,
    photoIds: [],
    assignment: null,
    comparables: [],
    revalueBy: null,
    taxAppraisal: null,
    certification: null,
  };
  return {
    lab: {
      name: 'Heritage Valuation Laboratory',
      address: '125 Antiquarian Row, Boston, MA 02108',
      phone: '+1 (617) 555-0142',
      email: null,
      certificationNumber: null,
      logo: null,
    },
    sample: {
      displayId: 'VAL-0001',
      itemName: 'Regency Silver Inkstand',
      category: 'Silver',
      description: 'A silver inkstand with two wells and a taperstick.',
      submissionDate: new Date('2026-03-01'),
      services: 'Valuation, Condition',
      ownerName: 'Carl Owner',
    },
    elements: [{ element: 'Silver', percentage: 92.5, purity: '925', quality: 'Good', notes: null }],
    content,
    analyst: { name: 'Ada Author', signature: null },
    reviewer: reviewed
      ? { name: 'Rita Reviewer', signature: null, reviewedAt: new Date('2026-03-15') }
      : null,
    reportCode: 'ABCD2345',
    revision: 1,
    issuedAt: new Date('2026-03-14'),
    verifyUrl: 'http://lab.test/verify-report?code=ABCD2345',
  };
}

/** Each page's text, in reading order. */
function pagesOf(pdf: Buffer, name: string): string[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const text = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).stdout;
  return text.split('\f').filter((p) => p.trim() !== '');
}

describe('report pagination', () => {
  it.skipIf(!hasPdfText)(
    'the sign-off always shares its page with the report’s text, however long the findings',
    { timeout: 120_000 },
    async () => {
      let movedOver = 0;
      for (const reviewed of [false, true]) {
        for (let n = 0; n <= 30; n++) {
          const pages = pagesOf(await renderReportPdf(report(n, reviewed)), `r${Number(reviewed)}-${n}`);
          // The signatures' page: the last, or the one before when the verification block starts
          // the last page.
          const last = pages.findLast((p) => p.includes('ANALYZED BY')) ?? '';
          expect(last, `${n} summary paragraphs`).toContain('ANALYZED BY');
          expect(pages.indexOf(last), `${n} summary paragraphs`).toBeGreaterThanOrEqual(pages.length - 2);
          expect(pages.at(-1), `${n} summary paragraphs`).toContain('VERIFY THIS REPORT');
          // Above the signatures on their page: some of the findings.
          const above = last.slice(0, last.indexOf('ANALYZED BY'));
          if (pages.length > 1) {
            expect(above, `${n} paragraphs, reviewed: ${reviewed}`).toMatch(
              /(Summary|Basis|Rationale|Condition) \d+:/,
            );
            if (!/Summary 1:|VALUATION|Findings/.test(above)) movedOver++;
          }
        }
      }
      // Some of these lengths did need a paragraph carried over.
      expect(movedOver).toBeGreaterThan(0);
    },
  );
});

describe('report pagination: page 1', () => {
  it(
    'a typical valuation report leaves no large gap at the bottom of page 1',
    {
      timeout: 120_000,
    },
    async () => {
      // Before rows of photos could be drawn shorter, a second row that missed by a few points left
      // up to 131 pt of page 1 empty (1–6 photos, descriptions of 0 to 6 sentences).
      const photo = await sharp({
        create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 120, b: 200 } },
      })
        .jpeg()
        .toBuffer();
      let broken = 0;
      for (let photos = 1; photos <= 6; photos++) {
        for (let sentences = 0; sentences <= 6; sentences++) {
          const input = report(3, false);
          input.photos = Array.from({ length: photos }, (_, i) => ({
            image: photo,
            caption: `Photo ${i + 1}: view-${i + 1}.jpg`,
          }));
          input.sample.description = 'A silver inkstand with two wells and a taperstick. '.repeat(sentences);
          const { pageEnds, bottom } = await reportPageEnds(input);
          const first = pageEnds[0];
          if (first === undefined) continue;
          broken++;
          // 110 pt (under a sixth of the 706 pt a page holds): the room the shortest row of photos
          // and its caption need; the other blocks kept whole on page 1 (a heading with its first
          // lines, the valuation box, the analysis table) are smaller.
          expect(bottom - first, `${photos} photos, ${sentences} sentences`).toBeLessThan(110);
        }
      }
      // These reports do run onto a second page.
      expect(broken).toBeGreaterThan(30);
    },
  );
});

/** An appraisal: assignment, ten comparables, long texts, six photos, the certification. */
async function appraisal(summaryParagraphs: number, reviewed: boolean): Promise<ReportPdfInput> {
  const input = report(summaryParagraphs, reviewed, 2);
  const content = input.content as ReportContent;
  content.assignment = {
    intendedUse: 'Insurance scheduling',
    intendedUsers: 'The client and the insurer',
    valueDefinition: paragraphs('Definition', 2, 2),
    propertyInterest: 'full-ownership',
    propertyInterestOther: null,
    inspection: 'in-person',
    inspectionDate: '2026-03-10',
    scopeOfWork: paragraphs('Scope', 3, 2),
    extraordinaryAssumptions: paragraphs('Assumption', 2, 2),
    hypotheticalConditions: null,
    limitingConditions: paragraphs('Limiting', 4, 2),
  };
  content.comparables = Array.from({ length: 10 }, (_, i) => ({
    description: `Regency silver inkstand, lot ${i + 1}, of a similar maker and date`,
    source: 'Auction house',
    saleDate: '2025-06-01',
    price: 1_500_000 + i * 1000,
    currency: 'USD',
    lotUrl: 'https://auction.test/lot/1',
    notes: 'Slightly worn',
    photoFileId: null,
  }));
  input.certification = paragraphs('Certify', 3);
  input.analyst = { name: 'Ada Author', signature: null, qualifications: '<p>Twenty years of silver.</p>' };
  const photo = await sharp({
    create: { width: 800, height: 600, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
  input.photos = Array.from({ length: 6 }, (_, i) => ({ image: photo, caption: `Photo ${i + 1}` }));
  return input;
}

describe('report pagination: every page but the last is filled', () => {
  it(
    'no page but the last ends more than 160 pt empty, for a plain, a reviewed and an appraisal report of any length',
    { timeout: 300_000 },
    async () => {
      // 160 pt, under 23 % of the 706 pt a page holds: the signatures' row (123 pt) and the two
      // lines that go over with it (about 30 pt with their spacing), when the signatures miss the
      // page by a hair. Any larger gap is closed by splitting a paragraph (two lines at least on
      // each side) or by the verification block starting the last page. Before these rules, a
      // reviewed report's page before the last could end 297 pt short, an appraisal's 427 pt.
      const gaps: Record<string, { worst: number; at: string }> = {};
      const kinds: [string, (n: number) => Promise<ReportPdfInput>][] = [
        ['plain', async (n) => report(n, false, 2)],
        ['reviewed', async (n) => report(n, true, 2)],
        ['appraisal', (n) => appraisal(n, true)],
      ];
      for (const [kind, make] of kinds) {
        gaps[kind] = { worst: 0, at: '' };
        for (let n = 0; n <= 24; n++) {
          const { pageEnds, bottom } = await reportPageEnds(await make(n));
          pageEnds.forEach((end, page) => {
            const gap = bottom - end;
            const g = gaps[kind];
            if (g && gap > g.worst) gaps[kind] = { worst: gap, at: `${n} paragraphs, page ${page + 1}` };
          });
        }
      }
      for (const [kind, { worst, at }] of Object.entries(gaps))
        expect(worst, `${kind}: worst gap at ${at}`).toBeLessThanOrEqual(160);
      // The reports did run over several pages, with gaps at their page ends to measure.
      expect(Math.max(...Object.values(gaps).map((g) => g.worst))).toBeGreaterThan(MAX_EMPTY / 2);
    },
  );
});
