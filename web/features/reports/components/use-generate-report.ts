import { useNavigate } from 'react-router';
import { ELEMENTS_REQUIRED_MESSAGE } from '../../../../common/contracts/reports';
import { clearToken } from '../../../lib/api';
import { downloadReportPdf } from '../../../lib/reports';
import { toast } from '../../../lib/toast';
import { useIssueReport } from '../api';
import { describeGenerationFailure, SESSION_EXPIRED_REDIRECT_MS } from '../generation-errors';
import { type DraftElement, elementsToSend } from './ElementEditor';

/**
 * Generating a report (spec §4, §8): sends the filled rows, says 'generated' or 'updated', then
 * lets the caller close and clear, and downloads the PDF automatically. Failures get §8's texts.
 */
export function useGenerateReport(sampleId: number, hadCode: boolean) {
  const navigate = useNavigate();
  const issue = useIssueReport(sampleId);

  const generate = async (rows: DraftElement[]): Promise<string | null> => {
    const elements = elementsToSend(rows);
    if (elements.length === 0) {
      toast.error('Validation Error', ELEMENTS_REQUIRED_MESSAGE);
      return null;
    }
    try {
      const result = await issue.mutateAsync(elements);
      const updated = hadCode || result.action === 'updated';
      toast.success(
        'Report Generated',
        `Report ${updated ? 'updated' : 'generated'} successfully. Verification code: ${result.reportCode}`,
      );
      void downloadReportPdf(result.reportCode, () => navigate('/login'));
      return result.reportCode;
    } catch (err) {
      const failure = describeGenerationFailure(err);
      toast.error(failure.title, failure.message);
      if (failure.kind === 'session') {
        clearToken();
        setTimeout(() => navigate('/login'), SESSION_EXPIRED_REDIRECT_MS);
      }
      return null;
    }
  };

  return { generate, isPending: issue.isPending };
}
