import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScheduleIssued, ScheduleSummary } from '../../../common/contracts/schedules';
import { api, HttpError } from '../../lib/api';
import { scheduleKeys } from './keys';

// The calls of the schedule screens (docs/product/schedules.md).

/** The collection's current schedule, or null when none has been issued (404). */
export const collectionScheduleQuery = (collectionId: number) =>
  queryOptions({
    queryKey: scheduleKeys.ofCollection(collectionId),
    queryFn: async () => {
      try {
        return await api.get<ScheduleSummary>(`/api/collections/${collectionId}/schedule`);
      } catch (err) {
        if (err instanceof HttpError && err.status === 404) return null;
        throw err;
      }
    },
  });

export function useIssueSchedule(collectionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ScheduleIssued>(`/api/staff/collections/${collectionId}/schedule`),
    onSuccess: () => client.invalidateQueries({ queryKey: scheduleKeys.ofCollection(collectionId) }),
  });
}
