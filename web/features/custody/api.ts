import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateLocationRequest,
  CustodyEventEntry,
  CustodyMoveRequest,
  Expert,
  IntakeRequest,
  Inventory,
  ReturnRequest,
  StorageLocation,
  UpdateLocationRequest,
} from '../../../common/contracts/custody';
import type { Sample } from '../../../common/contracts/samples';
import { api, apiRequest, apiUpload, fetchBlob, openInNewTab } from '../../lib/api';
import { custodyKeys, invalidateSampleViews } from '../../lib/query-keys';

// Custody of the physical item (docs/product/custody.md): intake, moves, returns, labels,
// storage locations and the inventory.

export const custodyHistoryQuery = (sampleId: number) =>
  queryOptions({
    queryKey: custodyKeys.history(sampleId),
    queryFn: () => api.get<CustodyEventEntry[]>(`/api/samples/${sampleId}/custody`),
  });

export const locationsQuery = () =>
  queryOptions({
    queryKey: custodyKeys.locations(),
    queryFn: () => api.get<StorageLocation[]>('/api/admin/locations'),
  });

export const inventoryQuery = () =>
  queryOptions({
    queryKey: custodyKeys.inventory(),
    queryFn: () => api.get<Inventory>('/api/staff/inventory'),
  });

export const expertsQuery = () =>
  queryOptions({
    queryKey: custodyKeys.experts(),
    queryFn: () => api.get<Expert[]>('/api/staff/experts'),
    staleTime: 5 * 60_000,
  });

/** After a custody change: the sample everywhere, its history, the locations' counts, the inventory. */
function useCustodyMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        invalidateSampleViews(queryClient),
        queryClient.invalidateQueries({ queryKey: custodyKeys.all }),
      ]),
  });
}

export const useIntake = (sampleId: number) =>
  useCustodyMutation(
    ({
      intake,
      photos,
      onProgress,
    }: {
      intake: IntakeRequest;
      photos: File[];
      onProgress?: (f: number) => void;
    }) => {
      const form = new FormData();
      form.append('intake', JSON.stringify(intake));
      for (const p of photos) form.append('photos', p, p.name);
      return apiUpload<Sample>('POST', `/api/staff/samples/${sampleId}/intake`, form, onProgress);
    },
  );

export const useMoveItem = (sampleId: number) =>
  useCustodyMutation((body: CustodyMoveRequest) =>
    api.post<Sample>(`/api/staff/samples/${sampleId}/custody`, body),
  );

export const useReturnItem = (sampleId: number) =>
  useCustodyMutation((body: ReturnRequest) =>
    api.post<Sample>(`/api/staff/samples/${sampleId}/return`, body),
  );

export const useCreateLocation = () =>
  useCustodyMutation((body: CreateLocationRequest) =>
    api.post<StorageLocation>('/api/admin/locations', body),
  );

export const useUpdateLocation = () =>
  useCustodyMutation(({ id, ...body }: UpdateLocationRequest & { id: number }) =>
    apiRequest<StorageLocation>('PATCH', `/api/admin/locations/${id}`, body),
  );

/** Opens the item's label PDF in a new tab, to print. */
export const openLabel = (sampleId: number) =>
  openInNewTab(() => fetchBlob(`/api/staff/samples/${sampleId}/label`));
