import { queryOptions } from '@tanstack/react-query';
import type { AwaitingReviewItem, ReportReview, ReviewDecision } from '../../common/contracts/review';
import { api } from './api';
import { staffKeys } from './query-keys';

// The second review of reports (docs/product/valuation-report.md): read by the reports feature's
// review panel and by both dashboards' "Awaiting your review", so it lives here rather than in a feature.

/** GET /api/staff/reviews: revisions awaiting review the caller may approve (never their own). */
export const awaitingReviewQuery = () =>
  queryOptions({
    queryKey: staffKeys.reviews(),
    queryFn: () => api.get<AwaitingReviewItem[]>('/api/staff/reviews'),
  });

/** GET /api/staff/samples/{id}/report/review: the sample's draft awaiting review or sent back, or null. */
export const reportReviewQuery = (sampleId: number) =>
  queryOptions({
    queryKey: staffKeys.review(sampleId),
    queryFn: () => api.get<ReportReview | null>(`/api/staff/samples/${sampleId}/report/review`),
    retry: false,
  });

/** GET /api/staff/samples/{id}/report/review-history: every approval and send-back, newest first. */
export const reviewHistoryQuery = (sampleId: number) =>
  queryOptions({
    queryKey: staffKeys.reviewHistory(sampleId),
    queryFn: () => api.get<ReviewDecision[]>(`/api/staff/samples/${sampleId}/report/review-history`),
    retry: false,
  });
