import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AddCollectionSamplesBody,
  CollectionDetail,
  CollectionListItem,
  CreateCollectionBody,
} from '../../../common/contracts/collections';
import type { OwnSampleListItem } from '../../../common/contracts/samples';
import { api } from '../../lib/api';
import { pollWhileProcessing } from '../../lib/photos';
import { collectionKeys, sampleKeys } from '../../lib/query-keys';

// The calls of the collections screens (docs/product/collections.md).

export const collectionsQuery = (token: string | null) =>
  queryOptions({
    queryKey: collectionKeys.mine(token),
    queryFn: () => api.get<CollectionListItem[]>('/api/collections'),
    enabled: Boolean(token),
  });

export const collectionQuery = (id: number) =>
  queryOptions({
    queryKey: collectionKeys.detail(id),
    queryFn: () => api.get<CollectionDetail>(`/api/collections/${id}`),
    // An imported item's thumbnail appears by itself once its copies are made.
    refetchInterval: pollWhileProcessing<CollectionDetail>((c) => c.items.some((i) => i.photoProcessing)),
  });

/** The caller's own samples, to choose which to add (the dashboard's list, same cache entry). */
export const ownSamplesForAdding = (token: string | null) =>
  queryOptions({
    queryKey: sampleKeys.mine(token),
    queryFn: () => api.get<OwnSampleListItem[]>('/api/samples'),
    enabled: Boolean(token),
  });

export function useCreateCollection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCollectionBody) => api.post<CollectionDetail>('/api/collections', body),
    onSuccess: (created) => {
      client.setQueryData(collectionKeys.detail(created.id), created);
      return client.invalidateQueries({ queryKey: collectionKeys.all });
    },
  });
}

export function useAddSamples(collectionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AddCollectionSamplesBody) =>
      api.post<CollectionDetail>(`/api/collections/${collectionId}/samples`, body),
    onSuccess: (updated) => {
      client.setQueryData(collectionKeys.detail(collectionId), updated);
      return client.invalidateQueries({ queryKey: sampleKeys.all });
    },
  });
}
