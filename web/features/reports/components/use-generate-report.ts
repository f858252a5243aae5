import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ELEMENTS_REQUIRED_MESSAGE } from '../../../../common/contracts/reports';
import { useReportDownload } from '../../../lib/reports';
import { useSession } from '../../../lib/session';
import { api } from '../../../lib/api';
import { invalidateSampleViews } from '../../../lib/query-keys';
import { toast } from '../../../lib/toast';
import { useIssueReport } from '../api';
import { describeGenerationFailure, SESSION_EXPIRED_REDIRECT_MS } from '../generation-errors';
import { type DraftElement, elementsToSend } from './ElementEditor';

/** The history note written when the report dialog also completes the sample. */
export const REPORT_COMPLETED_NOTE = 'Report issued';

/**
 * Generating a report (docs/product/reports-and-verification.md, messages.md): sends the filled rows, says 'generated' or 'updated', then
 * lets the caller close and clear, and downloads the PDF automatically. Failures get §8's texts.
 */
export function useGenerateReport(sampleId: number, hadCode: boolean) {
  const { expire } = useSession();
  const downloadReport = useReportDownload();
  const issue = useIssueReport(sampleId);
  const queryClient = useQueryClient();
  // Nothing to send: also shown inside the editor, beside the table it is about.
  const [formError, setFormError] = useState<string | null>(null);

  /** Marks the sample completed after the report is issued, so the client sees both together. */
  const markCompleted = async () => {
    try {
      await api.post(`/api/staff/samples/${sampleId}/status`, {
        status: 'completed',
        comment: REPORT_COMPLETED_NOTE,
      });
      await invalidateSampleViews(queryClient);
    } catch {
      toast.error('Error', 'Failed to update sample status');
    }
  };

  const generate = async (
    rows: DraftElement[],
    opts: { markCompleted?: boolean } = {},
  ): Promise<string | null> => {
    const elements = elementsToSend(rows);
    if (elements.length === 0) {
      setFormError(ELEMENTS_REQUIRED_MESSAGE);
      toast.error('Validation Error', ELEMENTS_REQUIRED_MESSAGE);
      return null;
    }
    setFormError(null);
    try {
      const result = await issue.mutateAsync(elements);
      const updated = hadCode || result.action === 'updated';
      toast.success(
        'Report Generated',
        `Report ${updated ? 'updated' : 'generated'} successfully. Verification code: ${result.reportCode}`,
      );
      if (opts.markCompleted) await markCompleted();
      void downloadReport(result.reportCode);
      return result.reportCode;
    } catch (err) {
      const failure = describeGenerationFailure(err);
      toast.error(failure.title, failure.message);
      if (failure.kind === 'session') {
        expire({ redirectAfterMs: SESSION_EXPIRED_REDIRECT_MS });
      }
      return null;
    }
  };

  return { generate, isPending: issue.isPending, formError };
}
