import { useMutation } from '@tanstack/react-query';
import type { DocumentCheckResponse, VerificationResponse } from '../../../common/contracts/verification';
import { normalizeReportCode } from '../../../common/domain/reports';
import { api, apiUpload } from '../../lib/api';

/** GET /api/reports/verify/{code} (public). */
export function useVerifyReport() {
  return useMutation({
    mutationFn: (code: string) =>
      api.get<VerificationResponse>(`/api/reports/verify/${encodeURIComponent(normalizeReportCode(code))}`),
  });
}

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
