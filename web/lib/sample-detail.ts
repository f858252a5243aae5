import { queryOptions } from '@tanstack/react-query';
import type { SampleDetail } from '../../common/contracts/samples';
import { api } from './api';
import { pollWhileProcessing } from './photos';
import { sampleKeys } from './query-keys';

/**
 * GET /api/samples/{id}, never retried: the detail page and the report editor read the same cache
 * entry, so an issued report or a status change shows on both. Asked again while photo copies are
 * being made, so their placeholders fill in by themselves.
 */
export const sampleDetailQuery = (id: number) =>
  queryOptions({
    queryKey: sampleKeys.detail(id),
    queryFn: () => api.get<SampleDetail>(`/api/samples/${id}`),
    retry: false,
    staleTime: 0,
    refetchInterval: pollWhileProcessing<SampleDetail>((s) => s.files.some((f) => f.processing)),
  });
