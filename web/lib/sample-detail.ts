import { queryOptions } from '@tanstack/react-query';
import type { SampleDetail } from '../../common/contracts/samples';
import { api } from './api';
import { sampleKeys } from './query-keys';

/**
 * GET /api/samples/{id}, never retried: the detail page and the report editor read the same cache
 * entry, so an issued report or a status change shows on both.
 */
export const sampleDetailQuery = (id: number) =>
  queryOptions({
    queryKey: sampleKeys.detail(id),
    queryFn: () => api.get<SampleDetail>(`/api/samples/${id}`),
    retry: false,
    staleTime: 0,
  });
