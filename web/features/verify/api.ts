import { queryOptions, useMutation } from '@tanstack/react-query';
import type { CredentialCheckResponse } from '../../../common/contracts/credentials';
import type { DocumentCheckResponse, VerificationResponse } from '../../../common/contracts/verification';
import { normalizeReportCode } from '../../../common/domain/reports';
import { api, apiUpload } from '../../lib/api';
import { verificationKeys } from '../../lib/query-keys';

/**
 * GET /api/reports/verify/{code} (public), for a normalised code; nothing is asked for an empty one.
 * With the owner's share token the answer also holds the value (docs/product/valuation-report.md).
 */
export const verificationQuery = (code: string, share = '') =>
  queryOptions({
    queryKey: verificationKeys.code(code, share),
    queryFn: () =>
      api.get<VerificationResponse>(
        `/api/reports/verify/${encodeURIComponent(code)}${share ? `?share=${encodeURIComponent(share)}` : ''}`,
      ),
    enabled: code !== '',
    retry: false,
    staleTime: 0,
  });

/** POST /api/reports/verify/{code}/document with multipart 'file' (public). */
export function useCheckDocument() {
  return useMutation({
    mutationFn: ({ code, file }: { code: string; file: File }) => {
      const form = new FormData();
      form.append('file', file);
      return apiUpload<DocumentCheckResponse>(
        'POST',
        `/api/reports/verify/${encodeURIComponent(normalizeReportCode(code))}/document`,
        form,
      );
    },
  });
}

/** POST /api/reports/verify-credential {credential} (public). */
export function useCheckCredential() {
  return useMutation({
    mutationFn: (credential: string) =>
      api.post<CredentialCheckResponse>('/api/reports/verify-credential', { credential }),
  });
}
