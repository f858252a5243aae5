import type { IssueReportBody } from '../../../common/contracts/reports';
import { REPORT_PREVIEW_BAND } from '../../../common/domain/reports';
import type { AuthUser } from '../../plugins/auth';
import { type IssueDeps, prepareIssue } from './issue-report';
import { renderReportPdf } from './report-pdf';
import { latestRevisionOfSample } from './reports.queries';

// The staff-only preview of a report (docs/product/valuation-report.md, "Preview"): the PDF as issuing
// this draft would draw it, made on the spot and handed back. Nothing is stored, no code is drawn, no
// revision is made, and the file is not signed; every page says it is a draft.

/** The code a preview prints when the sample has none yet (a first report's code is drawn at issue). */
export const PREVIEW_CODE = 'DRAFT';

export async function previewReport(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  body: IssueReportBody,
): Promise<{ pdf: Buffer; fileName: string }> {
  const { sample, base } = await prepareIssue(deps, user, sampleId, body);
  // The number and code this draft would be issued under: a sent-back draft is replaced under its own.
  const latest = await latestRevisionOfSample(deps.db, sample.id);
  const replaced = latest?.state === 'returned' ? latest : undefined;
  const reportCode = sample.reportCode ?? replaced?.reportCode ?? null;
  const revision = replaced ? replaced.revision : (latest?.revision ?? 0) + 1;
  const pdf = await renderReportPdf({
    ...base,
    reportCode: reportCode ?? PREVIEW_CODE,
    revision,
    issuedAt: new Date(),
    verifyUrl: `${deps.config.publicUrl}/verify-report${reportCode ? `?code=${reportCode}` : ''}`,
    draftBand: REPORT_PREVIEW_BAND,
  });
  return { pdf, fileName: `Report-preview-${base.sample.displayId}.pdf` };
}
