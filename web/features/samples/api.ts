import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Sample } from '../../../common/contracts/samples';
import { apiUpload } from '../../lib/api';
import { sampleKeys } from '../../lib/query-keys';

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
