import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IssueReportResponse } from '../../../common/contracts/reports';
import type { RejectReportBody, ReportReview } from '../../../common/contracts/review';
import { api } from '../../lib/api';
import { invalidateSampleViews } from '../../lib/query-keys';

// The second review's two decisions (docs/product/valuation-report.md). Both change what the sample
// pages, the lists and the review queue show, so every sample view is refreshed (staff keys included).

/** POST /api/staff/samples/{id}/report/approve: the revision becomes the issued report. */
export function useApproveReport(sampleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<IssueReportResponse>(`/api/staff/samples/${sampleId}/report/approve`),
    onSuccess: () => void invalidateSampleViews(queryClient),
  });
}

/** POST /api/staff/samples/{id}/report/reject {comment}: back to its author. */
export function useSendBackReport(sampleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RejectReportBody) =>
      api.post<ReportReview>(`/api/staff/samples/${sampleId}/report/reject`, body),
    onSuccess: () => void invalidateSampleViews(queryClient),
  });
}
