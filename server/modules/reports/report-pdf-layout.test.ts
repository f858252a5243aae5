import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ReportContent } from '../../../common/contracts/reports';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { renderReportPdf, reportPageEnds, type ReportPdfInput } from './report-pdf';

// The report's pagination (docs/product/valuation-report.md, "The PDF"): the sign-off (signatures,
// verification block with its QR code, closing note) is one block on the last page, never alone
// there: when the full sign-off does not fit under the last text, the compact one is drawn there
// if it fits, and otherwise the last lines of the text go over with the full one (two at least, and
// two stay). No page but the last ends with a large gap.

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
          // The signatures and the verification block: together on the last page.
          const last = pages.at(-1) ?? '';
          expect(last, `${n} summary paragraphs`).toContain('ANALYZED BY');
          expect(last, `${n} summary paragraphs`).toContain('VERIFY THIS REPORT');
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

type Rendered = Awaited<ReturnType<typeof reportPageEnds>> & { pages: string[] };

const KINDS: [string, (n: number) => Promise<ReportPdfInput>][] = [
  ['plain', async (n) => report(n, false, 2)],
  ['reviewed', async (n) => report(n, true, 2)],
  ['appraisal', (n) => appraisal(n, true)],
];
const LENGTHS = Array.from({ length: 25 }, (_, n) => n);

/** Every kind of report with 0 to 24 summary paragraphs, drawn once for the tests below. */
let rendered: Promise<Map<string, Rendered>> | null = null;
const renderAll = () =>
  (rendered ??= (async () => {
    const all = new Map<string, Rendered>();
    for (const [kind, make] of KINDS)
      for (const n of LENGTHS) {
        const r = await reportPageEnds(await make(n));
        all.set(`${kind} ${n}`, { ...r, pages: pagesOf(r.pdf, `${kind}-${n}`) });
      }
    return all;
  })());

describe('report pagination: every page but the last is filled', () => {
  it(
    'no page but the last ends more than 160 pt empty, for a plain, a reviewed and an appraisal report of any length',
    { timeout: 300_000 },
    async () => {
      // 160 pt, under 23 % of the 706 pt a page holds: the room the compact sign-off (about 134 pt)
      // just misses and the two lines that go over with the full one. A sign-off that does not fit
      // whole is drawn compact when that fits, so a larger gap never opens above it. Before these
      // rules, a reviewed report's page before the last could end 297 pt short, an appraisal's 427 pt.
      const all = await renderAll();
      const gaps: Record<string, { worst: number; at: string }> = {};
      for (const [kind] of KINDS) {
        gaps[kind] = { worst: 0, at: '' };
        for (const n of LENGTHS) {
          const { pageEnds, bottom } = all.get(`${kind} ${n}`) as Rendered;
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
      const { bottom, top } = all.get('plain 0') as Rendered;
      expect(Math.max(...Object.values(gaps).map((g) => g.worst))).toBeGreaterThan((bottom - top) / 10);
    },
  );
});

describe.skipIf(!hasPdfText)('report pagination: the sign-off is one block', () => {
  it(
    'the verification block (QR code, code, closing note) is on the signatures’ page, the last, for every kind and length',
    { timeout: 300_000 },
    async () => {
      const all = await renderAll();
      const compact: Record<string, number[]> = {};
      for (const [kind] of KINDS) {
        compact[kind] = [];
        for (const n of LENGTHS) {
          const { pages, signOff } = all.get(`${kind} ${n}`) as Rendered;
          const at = `${kind}, ${n} summary paragraphs`;
          // Exactly one page holds the verification block: the last, with the signature lines.
          const verifying = pages.filter((p) => p.includes('VERIFY THIS REPORT'));
          expect(verifying, at).toHaveLength(1);
          const page = verifying[0] ?? '';
          expect(pages.at(-1), at).toBe(page);
          expect(page, at).toContain('ANALYZED BY');
          expect(page, at).toContain('Ada Author');
          if (kind !== 'plain') {
            expect(page, at).toContain('REVIEWED BY');
            expect(page, at).toContain('Rita Reviewer');
          }
          expect(page, at).toContain('ABCD2345');
          expect(page, at).toMatch(/This report reflects the condition/);
          // And some of the report's text above them: the sign-off never stands alone.
          if (pages.length > 1)
            expect(page.slice(0, page.indexOf('ANALYZED BY')), at).toMatch(/\w+ \d+:|qualifications/i);
          if (signOff === 'compact') compact[kind]?.push(n);
        }
      }
      // Each kind met a length where only the compact sign-off fitted under the text (where the
      // verification block used to start the last page alone).
      for (const [kind, lengths] of Object.entries(compact))
        expect(lengths.length, `${kind}: lengths with the compact sign-off`).toBeGreaterThan(0);
    },
  );

  const zbar = requirePrograms(
    [PROGRAMS.pdftoppm, PROGRAMS.zbarimg],
    'the compact sign-off QR decoding test',
  );
  it.skipIf(!zbar)(
    'the compact sign-off’s smaller QR code reads as the verification address',
    { timeout: 300_000 },
    async () => {
      const all = await renderAll();
      let decoded = 0;
      for (const [key, { pdf, pages, signOff }] of all) {
        if (signOff !== 'compact') continue;
        // The last page alone, at 150 dpi: a print's resolution, well under a phone camera's.
        const file = join(dir, `qr-${key.replace(' ', '-')}.pdf`);
        writeFileSync(file, pdf);
        const png = join(dir, `qr-${key.replace(' ', '-')}`);
        const last = String(pages.length);
        execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', '-f', last, '-l', last, file, png]);
        const out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', `${png}.png`], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        expect(out.trim().split('\n'), key).toEqual(['http://lab.test/verify-report?code=ABCD2345']);
        decoded++;
      }
      expect(decoded).toBeGreaterThan(0);
    },
  );
});
