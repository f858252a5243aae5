import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchBlob, openInNewTab, serverFieldErrors } from '../../../lib/api';
import { focusInView } from '../../../lib/forms';
import { invalidateSampleViews } from '../../../lib/query-keys';
import { useReportDownload } from '../../../lib/reports';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useIssueReport } from '../api';
import { describeGenerationFailure, SESSION_EXPIRED_REDIRECT_MS } from '../generation-errors';
import { checkDraft, type DraftErrors, type ReportDraft } from '../report-draft';

/** Said after sending for review when the author also asked for the sample to be completed. */
export const COMPLETES_ON_APPROVAL = 'The sample will be marked Completed when the report is approved.';

/** Puts the focus on the field a message is about ('valuation.low', 'photoIds', 'summary'). */
function focusField(path: string) {
  const field = path.replace(/\.\d+$/, '');
  focusInView(
    document.querySelector<HTMLElement>(
      [
        `input[name="${field}"]:not([type="hidden"])`,
        `button[name="${field}"]`,
        `[data-name="${field}"]`,
      ].join(', '),
    ),
  );
}

/**
 * Generating a report (docs/product/reports-and-verification.md, valuation-report.md): checks the
 * draft with the server's own schema and puts each message beside its field, sends it, says
 * 'generated' or 'updated', then lets the caller close and clear, and downloads the PDF
 * automatically. Failures get the documented texts; a 400's field messages go beside their fields too.
 */
export function useGenerateReport(sampleId: number, hadCode: boolean) {
  const { expire } = useSession();
  const downloadReport = useReportDownload();
  const issue = useIssueReport(sampleId);
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<DraftErrors>({});

  const refuse = (found: DraftErrors) => {
    setErrors(found);
    const [first] = Object.entries(found);
    if (!first) return;
    toast.error('Validation Error', first[1]);
    // The element table's message sits under the table, not on a field.
    if (first[0] !== 'elements') focusField(first[0]);
  };

  const generate = async (
    draft: ReportDraft,
    opts: { markCompleted?: boolean } = {},
  ): Promise<string | null> => {
    const checked = checkDraft(draft);
    if (!checked.ok) {
      refuse(checked.errors);
      return null;
    }
    setErrors({});
    try {
      // 'Also mark the sample Completed' travels with the report: one transaction on the server, or,
      // with the lab's second review on, done when the report is approved.
      const result = await issue.mutateAsync({ ...checked.body, markCompleted: opts.markCompleted === true });
      await invalidateSampleViews(queryClient);
      // With second review on nothing is public yet: no PDF to fetch.
      if (result.state === 'awaiting-review') {
        toast.success(
          'Sent for Review',
          opts.markCompleted ? `${result.message} ${COMPLETES_ON_APPROVAL}` : result.message,
        );
        return result.reportCode;
      }
      const updated = hadCode || result.action === 'updated';
      toast.success(
        'Report Generated',
        `Report ${updated ? 'updated' : 'generated'} successfully. Verification code: ${result.reportCode}`,
      );
      void downloadReport(result.reportCode);
      return result.reportCode;
    } catch (err) {
      fail(err);
      return null;
    }
  };

  /** A refusal or failure: field messages beside their fields, the documented toast, and a lost session ended. */
  const fail = (err: unknown) => {
    const fieldErrors = serverFieldErrors(err);
    if (Object.keys(fieldErrors).length) setErrors(fieldErrors);
    const failure = describeGenerationFailure(err);
    toast.error(failure.title, failure.message);
    if (failure.kind === 'session') {
      expire({ redirectAfterMs: SESSION_EXPIRED_REDIRECT_MS });
    }
  };

  /**
   * Opens the PDF this draft would issue, marked as a draft and unsigned, in a new tab: checked like
   * Generate, but nothing is issued or stored (docs/product/valuation-report.md, "Preview").
   */
  const [previewing, setPreviewing] = useState(false);
  const preview = async (draft: ReportDraft) => {
    const checked = checkDraft(draft);
    if (!checked.ok) {
      refuse(checked.errors);
      return;
    }
    setErrors({});
    setPreviewing(true);
    try {
      await openInNewTab(() => fetchBlob(`/api/staff/samples/${sampleId}/report/preview`, checked.body));
    } catch (err) {
      fail(err);
    } finally {
      setPreviewing(false);
    }
  };

  /** Drops the messages about the fields under `prefixes` (the expert is correcting them). */
  const clearErrorsUnder = (prefixes: readonly string[]) =>
    setErrors((all) => {
      const kept = Object.entries(all).filter(([path]) => !prefixes.some((p) => path.startsWith(p)));
      return kept.length === Object.keys(all).length ? all : Object.fromEntries(kept);
    });

  return {
    generate,
    preview,
    previewing,
    isPending: issue.isPending,
    errors,
    clearErrors: () => setErrors({}),
    clearErrorsUnder,
  };
}
