import { queryOptions } from '@tanstack/react-query';
import type { Sample, SampleDetail } from '../../../common/contracts/samples';
import { api, apiUpload } from '../../lib/api';

// The sample calls of spec §7: submission (multipart, with upload progress) and one sample's detail.

export const sampleKeys = {
  all: ['samples'] as const,
  detail: (id: number) => ['samples', 'detail', id] as const,
};

/** GET /api/samples/{id}: no retry (spec §7). */
export const sampleDetailQuery = (id: number) =>
  queryOptions({
    queryKey: sampleKeys.detail(id),
    queryFn: () => api.get<SampleDetail>(`/api/samples/${id}`),
    retry: false,
    staleTime: 0,
  });

/** POST /api/samples; the caller invalidates `sampleKeys.all` after success. */
export function submitSample(form: FormData, onProgress?: (fraction: number) => void): Promise<Sample> {
  return apiUpload<Sample>('POST', '/api/samples', form, onProgress);
}

/** Opens an uploaded file (fetched with the token, as a blob) in a new tab. */
export const uploadPath = (fileName: string) => `/Uploads/${encodeURIComponent(fileName)}`;
