import { useCallback } from 'react';
import { fetchBlob, getToken, HttpError, saveBlob } from './api';
import { useSession } from './session';
import { toast } from './toast';

// Report download with its documented texts (docs/product/messages.md), used by every screen with a PDF button.

export const NO_TOKEN_MESSAGE = 'No authentication token found. Please log in again.';

export const reportPdfPath = (reportCode: string) => `/api/report/${encodeURIComponent(reportCode)}/pdf`;

/** The report's current revision as a verifiable credential (public; docs/product/signed-reports.md). */
export const reportCredentialPath = (reportCode: string) =>
  `/api/reports/verify/${encodeURIComponent(reportCode)}/credential`;

/** The lab's root certificate: trusting it makes report signatures show as trusted. */
export const LAB_ROOT_CA_PATH = '/.well-known/lab-root-ca.pem';

/**
 * Downloads Report-{code}.pdf. Without a stored token it says so and calls `endSession` (which
 * clears the whole session and goes to /login), returning false.
 */
export async function downloadReportPdf(reportCode: string, endSession: () => void): Promise<boolean> {
  if (!getToken()) {
    toast.error('Error', NO_TOKEN_MESSAGE);
    endSession();
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

/** `downloadReportPdf` bound to the session, for PDF buttons. */
export function useReportDownload(): (reportCode: string) => Promise<boolean> {
  const { expire } = useSession();
  return useCallback((reportCode: string) => downloadReportPdf(reportCode, () => expire()), [expire]);
}
