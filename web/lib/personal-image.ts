import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fetchBlob } from './api';
import { personalImageKeys } from './query-keys';

// A signed-in person's own images (profile picture, signature): read by the profile screen and the
// navigation bar's avatar, so they live here rather than in a feature.

/** A profile picture or signature under /Uploads, fetched with the token as a blob. */
export const personalImageQuery = (path: string | null) =>
  queryOptions({
    queryKey: personalImageKeys.image(path),
    queryFn: () => fetchBlob(path as string),
    enabled: Boolean(path),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** An object URL for the image at `path`, revoked when the image changes or the screen closes. */
export function usePersonalImage(path: string | null) {
  const query = useQuery(personalImageQuery(path));
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(query.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [query.data]);
  return { url, isError: query.isError, isLoading: query.isLoading };
}
