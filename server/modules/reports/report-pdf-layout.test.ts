import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReportContent } from '../../../common/contracts/reports';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { renderReportPdf, reportPageEnds, type ReportPdfInput } from './report-pdf';

// The report's pagination (docs/product/signed-reports.md): the signatures and the verification
// block never stand alone on a last page; when they do not fit under the last text, the last
// paragraph goes over with them, and the page before stays as full as it was.

const hasPdfText = requirePrograms([PROGRAMS.pdftotext], 'report PDF pagination checks');
const dir = mkdtempSync(join(tmpdir(), 'report-layout-'));

const paragraphs = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${label} ${i + 1}: the surface was examined under magnification and compared.</p>`,
  ).join('');

function report(summaryParagraphs: number, reviewed: boolean): ReportPdfInput {
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
    summary: summaryParagraphs ? paragraphs('Summary', summaryParagraphs) : null,
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
          const last = pages.at(-1) ?? '';
          expect(last, `${n} summary paragraphs`).toContain('ANALYZED BY');
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
