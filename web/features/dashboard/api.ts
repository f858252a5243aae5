import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OwnSampleListItem } from '../../../common/contracts/samples';
import { api, HttpError } from '../../lib/api';
import { pollWhileProcessing } from '../../lib/photos';
import { sampleKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';

// GET /api/samples for the customer dashboard and client home (docs/product/limits.md: up to 3 attempts, none when
// the error carries 401; docs/product/messages.md: 'Failed to fetch samples').

export const SAMPLE_LIST_ATTEMPTS = 3;
export const FETCH_SAMPLES_FAILED = 'Failed to fetch samples';

export class SampleListError extends Error {
  constructor(readonly status: number | null) {
    super(FETCH_SAMPLES_FAILED);
  }
}

async function fetchOwnSamples(): Promise<OwnSampleListItem[]> {
  try {
    return await api.get<OwnSampleListItem[]>('/api/samples');
  } catch (err) {
    throw new SampleListError(err instanceof HttpError ? err.status : null);
  }
}

export const isUnauthorized = (err: unknown) => err instanceof SampleListError && err.status === 401;

export const ownSamplesQuery = (token: string | null) =>
  queryOptions({
    queryKey: sampleKeys.mine(token),
    queryFn: fetchOwnSamples,
    enabled: Boolean(token),
    staleTime: 0,
    retry: (failures, err) => !isUnauthorized(err) && failures < SAMPLE_LIST_ATTEMPTS - 1,
    retryDelay: (attempt) => Math.min(500 * 2 ** attempt, 2000),
    // A new submission's thumbnail appears by itself once its copies are made.
    refetchInterval: pollWhileProcessing<OwnSampleListItem[]>((rows) => rows.some((s) => s.photoProcessing)),
  });

/** The signed-in customer's samples; a token the server refuses (401) ends the session. */
export function useOwnSamples() {
  const { token, expire } = useSession();
  const query = useQuery(ownSamplesQuery(token));
  useEffect(() => {
    if (isUnauthorized(query.error)) expire();
  }, [query.error, expire]);
  return query;
}
