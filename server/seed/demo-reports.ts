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

const ELEMENTS: ReportElementInput[][] = [
  [
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
  [
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
    const elements = ELEMENTS[i % ELEMENTS.length] ?? [];
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
