import { QueryClient } from '@tanstack/react-query';

/** Profile and admin data are fresh for 5 minutes. */
export const STALE_TIME_MS = 5 * 60 * 1000;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}
