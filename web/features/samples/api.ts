import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Sample } from '../../../common/contracts/samples';
import {
  type CreateShareLinkBody,
  type ShareLink,
  VERIFICATION_LOG_PAGE_SIZE,
  type VerificationLogEntry,
} from '../../../common/contracts/share-links';
import { api, apiRequest, apiUpload, getPage } from '../../lib/api';
import { disclosureKeys, sampleKeys } from '../../lib/query-keys';

// The sample calls of this feature: submission (multipart, with upload progress) and the files of a
// sample. One sample's detail is read through web/lib/sample-detail.ts (shared with the report editor).

/** POST /api/samples with upload progress (0–1, null while idle); the owner's lists reload after. */
export function useSubmitSample() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: (body: FormData) => {
      setProgress(0);
      return apiUpload<Sample>('POST', '/api/samples', body, setProgress);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sampleKeys.all }),
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

/** An uploaded file of a sample; it needs the token, so it is fetched as a blob. */
export const uploadPath = (fileName: string) => `/Uploads/${encodeURIComponent(fileName)}`;

/** The owner's share links of a sample's report, newest first (docs/product/valuation-report.md). */
export const shareLinksQuery = (sampleId: number) =>
  queryOptions({
    queryKey: disclosureKeys.links(sampleId),
    queryFn: () => api.get<ShareLink[]>(`/api/samples/${sampleId}/share-links`),
  });

/** One page of the report's public verification log, newest first, with the total. */
export const verificationLogQuery = (sampleId: number, page: number) =>
  queryOptions({
    queryKey: disclosureKeys.log(sampleId, page),
    queryFn: () =>
      getPage<VerificationLogEntry>(
        `/api/samples/${sampleId}/verifications?page=${page}&pageSize=${VERIFICATION_LOG_PAGE_SIZE}`,
      ),
  });

function useDisclosureMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: disclosureKeys.all }),
  });
}

export const useCreateShareLink = (sampleId: number) =>
  useDisclosureMutation((body: CreateShareLinkBody) =>
    api.post<ShareLink>(`/api/samples/${sampleId}/share-links`, body),
  );
export const useRevokeShareLink = (sampleId: number) =>
  useDisclosureMutation((linkId: number) =>
    apiRequest<unknown>('DELETE', `/api/samples/${sampleId}/share-links/${linkId}`),
  );
