import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  type SampleFilters,
  sampleFilters,
  sampleFiltersToParams,
} from '../../common/contracts/sample-search';

// A sample list's search, filters, sort and page live in the page's URL (docs/decisions/0025-search.md),
// so a view can be bookmarked, shared and restored by Back.

export type ListView = { filters: SampleFilters; page: number };

const FIELDS = Object.keys(sampleFilters.shape) as (keyof typeof sampleFilters.shape)[];
const REPEATED = new Set(['status', 'custody']);

/** The view a URL's query names; a value the list would refuse is left out rather than failing the page. */
export function viewFromParams(params: URLSearchParams): ListView {
  const filters: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const raw = REPEATED.has(field) ? params.getAll(field) : params.get(field);
    if (raw === null || (Array.isArray(raw) && raw.length === 0)) continue;
    const parsed = sampleFilters.shape[field].safeParse(raw);
    if (parsed.success && parsed.data !== undefined) filters[field] = parsed.data;
  }
  const pageValue = Number(params.get('page') ?? '1');
  const page = Number.isInteger(pageValue) && pageValue >= 1 ? pageValue : 1;
  return { filters: filters as SampleFilters, page };
}

/** The URL query of a view (page 1 is left out). */
export function viewToParams(view: ListView): URLSearchParams {
  const params = sampleFiltersToParams(view.filters);
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** Is anything searched, filtered or sorted? */
export const isFiltered = (f: SampleFilters) => viewToParams({ filters: f, page: 1 }).toString() !== '';

/**
 * The list view kept in the URL. `setFilters` goes back to page 1; `replace` (typing in the search
 * box) changes the URL without a new history entry.
 */
export function useListView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFromParams(params), [params]);
  const setView = useCallback(
    (next: ListView, opts: { replace?: boolean } = {}) => {
      // Keep what else the page keeps in its URL (an admin tab, for instance).
      setParams(
        (current) => {
          const merged = viewToParams(next);
          for (const [key, value] of current)
            if (!FIELDS.includes(key as never) && key !== 'page') merged.append(key, value);
          return merged;
        },
        { replace: opts.replace ?? false },
      );
    },
    [setParams],
  );
  const setFilters = useCallback(
    (filters: SampleFilters, opts: { replace?: boolean } = {}) => setView({ filters, page: 1 }, opts),
    [setView],
  );
  const setPage = useCallback((page: number) => setView({ ...view, page }), [setView, view]);
  return { view, setFilters, setPage };
}
