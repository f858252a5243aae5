import { createMailer } from '../mail/mailer';
import { resolveJwtSecret } from '../plugins/auth';
import { and, asc, eq } from 'drizzle-orm';
import {
  issueReportBody,
  type IssueReportInput,
  type ReportElementInput,
} from '../../common/contracts/reports';
import { sampleFiles } from '../db/schema';
import { DEFAULT_LAB_NAME } from '../../common/domain/reports';
import { issueReport } from '../modules/reports/issue-report';
import { demoAppraisal } from './demo-appraisals';
import type { AuthUser } from '../plugins/auth';
import { readLabSettings } from '../db/lab-settings';
import { loadLabKeys } from '../modules/signing/lab-keys';
import type { DemoSeedContext } from './demo-extras';

// Issued reports for the completed demo samples (and the painting), through the same issuing code
// as the API, so the PDFs, revisions and codes are real (the first one has a second revision). Each
// states a verdict, a grade, the object's identification, a value and its photo
// (docs/product/valuation-report.md).

/**
 * What a lab would report for each kind of item (the demo's completed and in-review samples): metal
 * assays for coins, jewellery and silver; paper, binding and gilding for a book; body and pigment
 * for porcelain.
 */
const ELEMENTS_BY_CATEGORY: Record<string, ReportElementInput[]> = {
  'coins-currency': [
    {
      element: 'Silver',
      percentage: 90,
      purity: '900 coin silver',
      quality: 'Excellent',
      notes:
        '<h2>Surface</h2><p>Original <strong>mint lustre</strong> in the fields; light contact marks on the cheek.</p>' +
        '<ul><li>San Francisco mint mark confirmed</li><li>No evidence of cleaning</li></ul>',
    },
    { element: 'Copper', percentage: 10, purity: null, quality: 'Good', notes: null },
  ],
  'books-manuscripts': [
    {
      element: 'Rag paper (text block)',
      percentage: 86,
      purity: 'Cotton and linen rag',
      quality: 'Good',
      notes: '<p>Light <em>foxing</em> to the first and last gatherings; no loss of text.</p>',
    },
    {
      element: 'Publisher’s cloth binding',
      percentage: 12,
      purity: 'Ribbed cloth',
      quality: 'Fair',
      notes: null,
    },
    { element: 'Gilt lettering', percentage: 2, purity: 'Gold leaf', quality: 'Good', notes: null },
  ],
  'jewelry-watches': [
    {
      element: 'Gold',
      percentage: 75,
      purity: '18k',
      quality: 'Excellent',
      notes: '<p>Case and bow <em>hallmarked</em>.</p>',
    },
    { element: 'Silver', percentage: 12.5, purity: null, quality: 'Good', notes: null },
    { element: 'Copper', percentage: 12.5, purity: null, quality: 'Fair', notes: null },
  ],
  // The demo's decorative-arts piece is a sterling tea service.
  'furniture-decorative': [
    {
      element: 'Silver',
      percentage: 92.5,
      purity: 'Sterling (925)',
      quality: 'Excellent',
      notes:
        '<p>Lion passant, leopard’s head and date letter for <strong>London 1868</strong> on every piece.</p>',
    },
    { element: 'Copper', percentage: 7.5, purity: null, quality: 'Good', notes: null },
  ],
  'ceramics-pottery': [
    {
      element: 'Porcelain body',
      percentage: 97,
      purity: 'Kaolin and porcelain stone',
      quality: 'Good',
      notes: '<p>Body and glaze consistent with late nineteenth-century Jingdezhen production.</p>',
    },
    { element: 'Cobalt blue pigment', percentage: 3, purity: 'Refined cobalt', quality: 'Good', notes: null },
  ],
};
const GENERIC_ELEMENTS: ReportElementInput[] = [
  { element: 'Original material', percentage: 95, purity: null, quality: 'Good', notes: null },
  { element: 'Later restoration', percentage: 5, purity: null, quality: 'Fair', notes: null },
];

const DAY = 86_400_000;
/** A calendar date `days` before today: effective dates are never in the future. */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

type Content = Omit<IssueReportInput, 'elements' | 'photoIds'>;

/** What the lab's expert states about each demo item beside the element table. */
const CONTENT_BY_CATEGORY: Record<string, () => Content> = {
  'coins-currency': () => ({
    identification: {
      maker: 'United States Mint, San Francisco',
      period: '1893',
      origin: 'San Francisco, USA',
      marks: 'Mint mark "S" on the reverse below the wreath',
      dimensions: '38.1 mm diameter; 26.73 g',
      materials: '90% silver, 10% copper',
    },
    authenticity: {
      verdict: 'authentic',
      rationale:
        '<p>Die markers, weight and metal agree with genuine 1893-S strikes; the mint mark is not added.</p>',
    },
    condition: { grade: 'excellent', notes: '<p>Original lustre, light contact marks on the cheek.</p>' },
    valuation: {
      low: 14000,
      high: 18000,
      currency: 'USD',
      valueType: 'auction-estimate',
      effectiveDate: daysAgo(25),
      basis: '<p>Public auction results for certified 1893-S dollars of this grade, last 24 months.</p>',
    },
    summary: '<p>A genuine key-date Morgan dollar with original surfaces.</p>',
  }),
  'furniture-decorative': () => ({
    identification: {
      maker: 'Robert Hennell III',
      period: 'Victorian, 1868',
      origin: 'London, England',
      marks: 'Lion passant, leopard’s head, date letter for 1868, maker’s mark RH',
      dimensions: 'Teapot 24 × 14 × 21 cm; tray 52 × 36 cm',
      materials: 'Sterling silver, ebonised wood handles',
    },
    authenticity: {
      verdict: 'authentic',
      rationale: '<p>Matching hallmarks on every piece; the crest is contemporary with the service.</p>',
    },
    condition: { grade: 'very-good', notes: '<p>Minor dents to the kettle base; handles sound.</p>' },
    valuation: {
      low: 8500,
      high: 11500,
      currency: 'USD',
      valueType: 'insurance-replacement',
      effectiveDate: daysAgo(20),
      basis: '<p>Retail replacement cost of a comparable hallmarked service from specialist dealers.</p>',
    },
    summary: '<p>A complete and genuine London-made service, suitable for insurance at the stated value.</p>',
  }),
  'jewelry-watches': () => ({
    identification: {
      maker: 'Patek Philippe & Co.',
      period: 'c. 1910',
      origin: 'Geneva, Switzerland',
      marks: 'Case, dial and movement signed; movement no. 17xxxx',
      dimensions: '50 mm case diameter',
      materials: '18k gold case, enamel dial',
    },
    authenticity: {
      verdict: 'authentic',
      rationale: '<p>Movement, case and dial numbers agree with the maker’s archive extract.</p>',
    },
    condition: {
      grade: 'very-good',
      notes: '<p>Running well after service; a hairline to the enamel at 4 o’clock.</p>',
    },
    valuation: {
      high: 42000,
      currency: 'USD',
      valueType: 'fair-market',
      effectiveDate: daysAgo(18),
      basis: '<p>Recent sales of comparable open-face Patek Philippe pocket watches.</p>',
    },
    summary: '<p>An authentic early twentieth-century Patek Philippe in very good order.</p>',
  }),
  'books-manuscripts': () => ({
    identification: {
      maker: 'Herman Melville; Harper & Brothers',
      period: '1851',
      origin: 'New York, USA',
      marks: 'Publisher’s blind-stamped cloth; first-issue points present',
      dimensions: '19.5 × 12.5 × 4 cm',
      materials: 'Rag paper, publisher’s cloth binding',
    },
    authenticity: { verdict: 'authentic', rationale: null },
    condition: { grade: 'good', notes: '<p>Foxing to the first and last gatherings; spine ends rubbed.</p>' },
    valuation: {
      low: 60000,
      high: 80000,
      currency: 'USD',
      valueType: 'auction-estimate',
      effectiveDate: daysAgo(12),
      basis: null,
    },
    summary: null,
  }),
  'artwork-paintings': () => ({
    identification: {
      maker: 'Circle of Jasper Francis Cropsey',
      period: 'c. 1865',
      origin: 'Hudson River Valley, New York, USA',
      marks: 'Signed lower right; stretcher stamped by a New York colourman',
      dimensions: '61 × 91 cm (framed 80 × 110 cm)',
      materials: 'Oil on canvas, giltwood frame',
    },
    authenticity: {
      verdict: 'inconclusive',
      rationale:
        '<p>Canvas, pigments and frame are of the period; the signature is not conclusive for Cropsey himself.</p>',
    },
    condition: {
      grade: 'good',
      notes: '<p>Old relining; small retouches in the sky; stable craquelure.</p>',
    },
    valuation: {
      low: 25000,
      high: 40000,
      currency: 'USD',
      valueType: 'insurance-replacement',
      effectiveDate: daysAgo(8),
      basis: '<p>Dealer prices for Hudson River School landscapes of this size and quality.</p>',
    },
    summary:
      '<p>A period Hudson River School landscape, to be insured at the stated range; an attribution to Cropsey himself would need further research.</p>',
  }),
};

/** The sample's photos in upload order. */
async function photoIdsOf(ctx: DemoSeedContext, sampleId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: sampleFiles.id })
    .from(sampleFiles)
    .where(and(eq(sampleFiles.sampleId, sampleId), eq(sampleFiles.fileCategory, 'photo')))
    .orderBy(asc(sampleFiles.id));
  return rows.map((r) => r.id);
}

export async function seedDemoReports(ctx: DemoSeedContext): Promise<string[]> {
  // Only completed samples have an issued report: an open or held sample's work is not done yet.
  const completed = ctx.samples.filter((s) => s.status === 'completed');
  const lines: string[] = [];
  // The same keys the server uses: from the configuration, or generated once under DATA_DIR.
  const labName = (await readLabSettings(ctx.db))?.labName?.trim() || DEFAULT_LAB_NAME;
  const keys = await loadLabKeys(ctx.config, labName);
  for (const [i, sample] of completed.entries()) {
    const analyst = ctx.staff.find((s) => s.id === sample.assignedStaffId) ?? ctx.staff[0];
    if (!analyst) continue;
    const issuer: AuthUser = {
      id: analyst.id,
      email: analyst.email,
      role: 'staff',
      isActive: true,
      firstName: analyst.firstName,
      lastName: analyst.lastName,
    };
    // A painting's report is its opinion and value: no element table.
    const elements =
      sample.category === 'artwork-paintings'
        ? []
        : (ELEMENTS_BY_CATEGORY[sample.category] ?? GENERIC_ELEMENTS);
    const content = CONTENT_BY_CATEGORY[sample.category]?.();
    // Each value comes with its assignment and the comparable sales it rests on.
    const appraisal = content?.valuation
      ? demoAppraisal(sample.category, sample.purposeOfValuation, content.valuation.valueType)
      : {};
    const body = (rows: ReportElementInput[]) =>
      issueReportBody.parse({ elements: rows, photoIds, ...content, ...appraisal });
    const photoIds = await photoIdsOf(ctx, sample.id);
    const deps = {
      config: ctx.config,
      db: ctx.db,
      storage: ctx.storage,
      keys,
      mailer: createMailer({
        config: ctx.config,
        secret: resolveJwtSecret(ctx.config.jwtSecret, ctx.config.dataDir),
      }),
    };
    let issued = await issueReport(deps, issuer, sample.id, body(elements));
    if (i === 0) {
      // A corrected second revision, so the demo shows a superseded first PDF.
      issued = await issueReport(
        deps,
        issuer,
        sample.id,
        body(elements.map((e) => (e.element === 'Copper' ? { ...e, quality: 'Excellent' } : e))),
      );
    }
    lines.push(`  report    ${issued.reportCode} (revision ${issued.revision}) for "${sample.itemName}"`);
  }
  return lines;
}
