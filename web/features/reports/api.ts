import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  IssueReportResponse,
  ReportElementInput,
  RevokeReportResponse,
} from '../../../common/contracts/reports';
import type { SampleDetail } from '../../../common/contracts/samples';
import { api } from '../../lib/api';

/** The sample with its current elements, to preload the editor (GET /api/samples/{id}). */
export const reportSampleQuery = (sampleId: number) =>
  queryOptions({
    queryKey: ['samples', sampleId, 'detail'],
    queryFn: () => api.get<SampleDetail>(`/api/samples/${sampleId}`),
    staleTime: 0,
  });

/** POST /api/staff/samples/{id}/report: staff and admins issue through the staff endpoint (spec §7). */
export function useIssueReport(sampleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (elements: ReportElementInput[]) =>
      api.post<IssueReportResponse>(`/api/staff/samples/${sampleId}/report`, { elements }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['samples'] });
      void queryClient.invalidateQueries({ queryKey: ['staff', 'samples'] });
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}

/** POST /api/admin/reports/{code}/revoke (admin). */
export function useRevokeReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportCode, reason }: { reportCode: string; reason: string }) =>
      api.post<RevokeReportResponse>(`/api/admin/reports/${encodeURIComponent(reportCode)}/revoke`, {
        reason,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['samples'] }),
  });
}
