import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sample, SampleListItem } from '../../../common/contracts/samples';
import type { StatusUpdateRequest } from '../../../common/contracts/workflow';
import { api } from '../../lib/api';

export const staffSamplesQuery = () =>
  queryOptions({
    queryKey: ['staff', 'samples'],
    queryFn: () => api.get<SampleListItem[]>('/api/staff/samples'),
  });

/** POST /api/staff/samples/{id}/status; the staff screen always leaves the comment empty (spec §4). */
export function useChangeStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: StatusUpdateRequest & { id: number }) =>
      api.post<Sample>(`/api/staff/samples/${id}/status`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['staff', 'samples'] }),
  });
}

/** 'representativeName (for clientName)' when a representative submitted, else the owner's name. */
export function clientLabel(s: SampleListItem): string {
  if (s.representativeName) return `${s.representativeName} (for ${s.clientName ?? s.submitterName})`;
  const name = [s.user?.firstName, s.user?.lastName].filter(Boolean).join(' ');
  return name || s.submitterName;
}
