import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreated, ApiKeyListItem, CreateApiKeyBody } from '../../../common/contracts/api-keys';
import { api, apiRequest } from '../../lib/api';
import { partnerKeys } from '../../lib/query-keys';

// The calls of the profile's "API keys" and "Webhooks" sections (docs/product/partners.md).

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: partnerKeys.apiKeys(),
    queryFn: () => api.get<ApiKeyListItem[]>('/api/api-keys'),
  });

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => api.post<ApiKeyCreated>('/api/api-keys', body),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<ApiKeyListItem>('DELETE', `/api/api-keys/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerKeys.apiKeys() }),
  });
}
