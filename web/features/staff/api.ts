import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sample } from '../../../common/contracts/samples';
import type { StatusUpdateRequest, WorkListItem } from '../../../common/contracts/workflow';
import { api } from '../../lib/api';
import { pollWhileProcessing } from '../../lib/photos';
import { invalidateSampleViews, staffKeys } from '../../lib/query-keys';

export const staffSamplesQuery = () =>
  queryOptions({
    queryKey: staffKeys.samples(),
    queryFn: () => api.get<WorkListItem[]>('/api/staff/samples'),
    // A new sample's thumbnail appears by itself once its copies are made.
    refetchInterval: pollWhileProcessing<WorkListItem[]>((rows) => rows.some((s) => s.photoProcessing)),
  });

/** POST /api/staff/samples/{id}/status, with the optional note the client reads in the history (docs/product/statuses.md). */
export function useChangeStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: StatusUpdateRequest & { id: number }) =>
      api.post<Sample>(`/api/staff/samples/${id}/status`, body),
    onSuccess: () => invalidateSampleViews(queryClient),
  });
}
