import { queryOptions } from '@tanstack/react-query';
import { PHOTO_PROCESSING_POLL_MS } from '../../common/domain/photos';
import { fetchBlob } from './api';
import { photoCopyKeys } from './query-keys';

// Photo copies live behind the bearer token like every /Uploads path, so screens fetch them as
// blobs. One query per URL: the gallery, its viewer and the dashboards share what was fetched.

export const photoBlobQuery = (url: string) =>
  queryOptions({
    queryKey: photoCopyKeys.copy(url),
    queryFn: () => fetchBlob(url),
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: 1,
  });

/** A refetchInterval for queries whose answer may still say `processing`: ask again until done. */
export const pollWhileProcessing =
  <T>(isProcessing: (data: T) => boolean) =>
  (query: { state: { data: T | undefined } }) =>
    query.state.data !== undefined && isProcessing(query.state.data) ? PHOTO_PROCESSING_POLL_MS : false;

/** HEIC by type or name: most browsers (Chromium, Firefox) cannot draw it before upload. */
export const isHeicFile = (file: File) => /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
