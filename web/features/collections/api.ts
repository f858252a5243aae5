import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AddCollectionSamplesBody,
  CollectionDetail,
  CollectionListItem,
  CreateCollectionBody,
  ImportPreview,
  ImportResult,
} from '../../../common/contracts/collections';
import type { OwnSampleListItem } from '../../../common/contracts/samples';
import { useState } from 'react';
import { api, apiUpload } from '../../lib/api';
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

/** The dry run of an import: the CSV as the server reads it and every problem; nothing is stored. */
export function usePreviewImport(collectionId: number) {
  return useMutation({
    mutationFn: ({ csv, photoNames }: { csv: string; photoNames: string[] }) => {
      const body = new FormData();
      body.append('file', new Blob([csv], { type: 'text/csv' }), 'import.csv');
      for (const name of photoNames) body.append('photoNames', name);
      return api.post<ImportPreview>(`/api/collections/${collectionId}/import?dryRun=1`, body);
    },
  });
}

/** The import itself, with upload progress; the collection and the sample lists refresh after it. */
export function useImportCollection(collectionId: number) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: ({ csv, photos }: { csv: string; photos: File[] }) => {
      const body = new FormData();
      body.append('file', new Blob([csv], { type: 'text/csv' }), 'import.csv');
      for (const f of photos) body.append('photos', f, f.name);
      setProgress(0);
      return apiUpload<ImportResult>('POST', `/api/collections/${collectionId}/import`, body, setProgress);
    },
    onSuccess: (result) => {
      client.setQueryData(collectionKeys.detail(collectionId), result.collection);
      return client.invalidateQueries({ queryKey: sampleKeys.all });
    },
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}
