import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  DeclineQuoteRequest,
  AcceptQuoteRequest,
  Quote,
  QuoteDraft,
  SendQuoteRequest,
} from '../../../common/contracts/quotes';
import { api, fetchBlob, saveBlob } from '../../lib/api';
import { invalidateSampleViews, quoteKeys } from '../../lib/query-keys';

// Quotes and invoices (docs/product/quotes.md).

export const quoteDraftQuery = (sampleId: number) =>
  queryOptions({
    queryKey: quoteKeys.draft(sampleId),
    queryFn: () => api.get<QuoteDraft>(`/api/staff/samples/${sampleId}/quote/draft`),
    staleTime: 0,
  });

function useQuoteMutation<V>(fn: (v: V) => Promise<Quote>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidateSampleViews(queryClient) });
}

export const useSendQuote = (sampleId: number) =>
  useQuoteMutation((body: SendQuoteRequest) => api.post<Quote>(`/api/staff/samples/${sampleId}/quote`, body));
export const useWithdrawQuote = (sampleId: number) =>
  useQuoteMutation(() => api.post<Quote>(`/api/staff/samples/${sampleId}/quote/withdraw`));
export const useAcceptQuote = (sampleId: number) =>
  useQuoteMutation((body: AcceptQuoteRequest) =>
    api.post<Quote>(`/api/samples/${sampleId}/quote/accept`, body),
  );
export const useDeclineQuote = (sampleId: number) =>
  useQuoteMutation((body: DeclineQuoteRequest) =>
    api.post<Quote>(`/api/samples/${sampleId}/quote/decline`, body),
  );
export const useMarkPaid = (sampleId: number) =>
  useQuoteMutation((reference: string) =>
    api.post<Quote>(`/api/admin/samples/${sampleId}/paid`, { reference }),
  );

/** Saves Invoice-VAL-0001-Q1.pdf. */
export async function downloadInvoice(sampleId: number, number: string): Promise<void> {
  saveBlob(await fetchBlob(`/api/samples/${sampleId}/invoice`), `Invoice-${number}.pdf`);
}
