import { createMailer } from '../mail/mailer';
import { resolveJwtSecret } from '../plugins/auth';
import type { ReportElementInput } from '../../common/contracts/reports';
import { DEFAULT_LAB_NAME } from '../../common/domain/reports';
import { issueReport } from '../modules/reports/issue-report';
import type { AuthUser } from '../plugins/auth';
import { readLabSettings } from '../modules/reports/reports.queries';
import { loadLabKeys } from '../modules/signing/lab-keys';
import type { DemoSeedContext } from './demo-extras';

// Issued reports with elements for the completed demo samples, through the same issuing code as
// the API, so the PDFs, revisions and codes are real (the first one has a second revision).

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

export async function seedDemoReports(ctx: DemoSeedContext): Promise<string[]> {
  const completed = ctx.samples.filter((s) => s.status === 'completed' || s.status === 'review');
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
    const elements = ELEMENTS_BY_CATEGORY[sample.category] ?? GENERIC_ELEMENTS;
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
    let issued = await issueReport(deps, issuer, sample.id, elements);
    if (i === 0) {
      // A corrected second revision, so the demo shows a superseded first PDF.
      issued = await issueReport(
        deps,
        issuer,
        sample.id,
        elements.map((e) => (e.element === 'Copper' ? { ...e, quality: 'Excellent' } : e)),
      );
    }
    lines.push(`  report    ${issued.reportCode} (revision ${issued.revision}) for "${sample.itemName}"`);
  }
  return lines;
}
