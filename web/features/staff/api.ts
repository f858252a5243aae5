import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser } from '../../../common/contracts/accounts';
import type { WorkListCounts } from '../../../common/contracts/sample-search';
import type { Sample } from '../../../common/contracts/samples';
import type { StatusUpdateRequest, WorkListItem } from '../../../common/contracts/workflow';
import { api, getPage } from '../../lib/api';
import { pollWhileProcessing } from '../../lib/photos';
import { adminKeys, invalidateSampleViews, staffKeys } from '../../lib/query-keys';
import { type ListView, viewToParams } from '../../lib/sample-filters';

/** Rows per page of the staff dashboard's list. */
export const WORK_LIST_SCREEN_PAGE = 25;

/** One page of the work list for the dashboard's search, filters and sort (kept in its URL). */
export const workListPageQuery = (view: ListView) => {
  const params = viewToParams(view);
  params.set('page', String(view.page));
  params.set('pageSize', String(WORK_LIST_SCREEN_PAGE));
  const query = params.toString();
  return queryOptions({
    queryKey: staffKeys.workList(query),
    queryFn: () => getPage<WorkListItem>(`/api/staff/samples?${query}`),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhileProcessing<{ rows: WorkListItem[] }>((page) =>
      page.rows.some((s) => s.photoProcessing),
    ),
  });
};

/** The dashboard's counters, counted by the server over everything the caller sees. */
export const workListCountsQuery = () =>
  queryOptions({
    queryKey: staffKeys.counts(),
    queryFn: () => api.get<WorkListCounts>('/api/staff/samples/counts'),
  });

/** An admin's assignee filter lists the staff accounts (the same call as the admin's selector). */
export const assigneesQuery = () =>
  queryOptions({
    queryKey: adminKeys.staffUsers(),
    queryFn: () => api.get<AdminUser[]>('/api/admin/users?role=staff'),
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
