import { clearToken, fetchBlob, getToken, HttpError, saveBlob } from './api';
import { toast } from './toast';

// Report download with the spec's texts (§8 Report download), used by every screen with a PDF button.

export const NO_TOKEN_MESSAGE = 'No authentication token found. Please log in again.';

export const reportPdfPath = (reportCode: string) => `/api/report/${encodeURIComponent(reportCode)}/pdf`;

/** Downloads Report-{code}.pdf. Returns false and redirects to /login when there is no token. */
export async function downloadReportPdf(reportCode: string, navigateToLogin: () => void): Promise<boolean> {
  if (!getToken()) {
    toast.error('Error', NO_TOKEN_MESSAGE);
    clearToken();
    navigateToLogin();
    return false;
  }
  toast.info('Report download started');
  try {
    const blob = await fetchBlob(reportPdfPath(reportCode));
    saveBlob(blob, `Report-${reportCode}.pdf`);
    return true;
  } catch (err) {
    const message =
      err instanceof HttpError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : '';
    toast.error('Error', message ? `Failed to download report: ${message}` : 'Failed to download report');
    return false;
  }
}
