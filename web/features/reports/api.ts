import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportDefaults } from '../../../common/contracts/appraisal';
import type {
  IssueReportBody,
  IssueReportResponse,
  RevokeReportResponse,
} from '../../../common/contracts/reports';
import { api } from '../../lib/api';
import { invalidateSampleViews, staffKeys } from '../../lib/query-keys';

// The editor reads the sample with its current elements through web/lib/sample-detail.ts, the same
// cache entry as the sample detail page.

/** POST /api/staff/samples/{id}/report: staff and admins issue through the staff endpoint (docs/product/api.md). */
export function useIssueReport(sampleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: IssueReportBody) =>
      api.post<IssueReportResponse>(`/api/staff/samples/${sampleId}/report`, body),
    onSuccess: () => void invalidateSampleViews(queryClient),
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
    onSuccess: () => void invalidateSampleViews(queryClient),
  });
}

/** GET /api/staff/report-defaults: the lab's limiting conditions and re-valuation terms for a new appraisal. */
export const reportDefaultsQuery = () =>
  queryOptions({
    queryKey: staffKeys.reportDefaults(),
    queryFn: () => api.get<ReportDefaults>('/api/staff/report-defaults'),
    staleTime: 60_000,
  });
