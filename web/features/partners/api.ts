import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreated, ApiKeyListItem, CreateApiKeyBody } from '../../../common/contracts/api-keys';
import type {
  CreateWebhookBody,
  Webhook,
  WebhookCreated,
  WebhookDelivery,
} from '../../../common/contracts/webhooks';
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

export const webhooksQuery = () =>
  queryOptions({ queryKey: partnerKeys.webhooks(), queryFn: () => api.get<Webhook[]>('/api/webhooks') });

export const deliveriesQuery = (webhookId: number) =>
  queryOptions({
    queryKey: partnerKeys.deliveries(webhookId),
    queryFn: () => api.get<WebhookDelivery[]>(`/api/webhooks/${webhookId}/deliveries`),
  });

export function useCreateWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => api.post<WebhookCreated>('/api/webhooks', body),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerKeys.webhooks() }),
  });
}

export function useDeleteWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<Webhook>('DELETE', `/api/webhooks/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerKeys.webhooks() }),
  });
}

/** "Send test event" and "Send again": both refresh the endpoint's delivery log. */
export function useSendDelivery(webhookId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number | null) =>
      deliveryId === null
        ? api.post<WebhookDelivery>(`/api/webhooks/${webhookId}/test`)
        : api.post<WebhookDelivery>(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`),
    onSuccess: () => client.invalidateQueries({ queryKey: partnerKeys.deliveries(webhookId) }),
  });
}
