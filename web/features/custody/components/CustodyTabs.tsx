import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  createLocationRequest,
  MAX_LOCATION_DESCRIPTION,
  MAX_LOCATION_NAME,
  type StorageLocation,
} from '../../../../common/contracts/custody';
import { displaySampleId } from '../../../../common/domain/samples';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { StatusBadge } from '../../../components/StatusBadge';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { inventoryQuery, locationsQuery, useCreateLocation, useUpdateLocation } from '../api';
import { DialogActions } from '../../../components/DialogActions';

// The admin dashboard's Inventory and Locations tabs (docs/product/custody.md).

/** What is in the lab now, by location, with days there and the items held too long after completion. */
export function InventoryTab() {
  const q = useQuery(inventoryQuery());
  if (q.isPending) return <RowsSkeleton label="Loading the inventory..." rows={5} />;
  if (q.isError)
    return (
      <LoadError onRetry={() => q.refetch()} retrying={q.isFetching}>
        {errorMessage(q.error, 'Failed to load the inventory')}
      </LoadError>
    );
  const { items, flagHeldDaysAfterCompletion: days } = q.data;
  const flagged = items.filter((i) => i.flagged).length;
  return (
    <Stack gap="sm">
      <Text>
        {items.length === 0
          ? 'No items are in the lab now.'
          : `${items.length} ${items.length === 1 ? 'item is' : 'items are'} in the lab now.`}
      </Text>
      {flagged > 0 ? (
        <Alert color="orange" title="Held after completion">
          {`${flagged} ${flagged === 1 ? 'item is' : 'items are'} still here more than ${days} days after the work was completed: send them back.`}
        </Alert>
      ) : null}
      {items.length > 0 ? (
        <ResponsiveTable minWidth={900}>
          <Table striped verticalSpacing="sm" aria-label="Inventory">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sample</Table.Th>
                <Table.Th>Owner</Table.Th>
                <Table.Th>Location</Table.Th>
                <Table.Th>Custody</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Days here</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((i) => (
                <Table.Tr key={i.id} data-sample-id={i.id}>
                  <Table.Td data-label="Sample">
                    <Link to={`/sample/${i.id}`}>
                      {displaySampleId(i.id)} {i.itemName}
                    </Link>
                  </Table.Td>
                  <Table.Td data-label="Owner">{i.ownerName}</Table.Td>
                  <Table.Td data-label="Location">{i.custody.location?.name ?? 'Intake desk'}</Table.Td>
                  <Table.Td data-label="Custody">
                    <CustodyBadge state={i.custody.state} />
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <StatusBadge status={i.status} />
                  </Table.Td>
                  <Table.Td data-label="Days here">
                    <Group gap="xs" wrap="nowrap">
                      <span>{i.daysHere}</span>
                      {i.flagged ? (
                        <Badge color="orange.9" variant="filled">
                          Held after completion
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ResponsiveTable>
      ) : null}
    </Stack>
  );
}

function LocationDialog({ location, onClose }: { location: StorageLocation | 'new'; onClose: () => void }) {
  const create = useCreateLocation();
  const update = useUpdateLocation();
  const editing = location === 'new' ? null : location;
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saving = create.isPending || update.isPending;

  const submit = async () => {
    const body = { name, description: description || null };
    const parsed = createLocationRequest.safeParse(body);
    if (!parsed.success) {
      const out: Record<string, string> = {};
      for (const i of parsed.error.issues) out[String(i.path[0])] ??= i.message;
      setErrors(out);
      return;
    }
    try {
      if (editing) await update.mutateAsync({ id: editing.id, ...body });
      else await create.mutateAsync(body);
      toast.success(editing ? 'Location saved' : 'Location added', parsed.data.name);
      onClose();
    } catch (err) {
      setErrors(serverFieldErrors(err));
      toast.error('Error', errorMessage(err, 'Failed to save the location'));
    }
  };

  return (
    <Modal opened onClose={onClose} title={editing ? `Edit ${editing.name}` : 'Add location'} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            name="name"
            required
            maxLength={MAX_LOCATION_NAME}
            placeholder="Vault A"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Textarea
            label="Description (optional)"
            name="description"
            autosize
            minRows={2}
            maxLength={MAX_LOCATION_DESCRIPTION}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
          <DialogActions onCancel={onClose} loading={saving}>
            Save
          </DialogActions>
        </Stack>
      </form>
    </Modal>
  );
}

/** The lab's storage locations: added, renamed, retired (never deleted). Admins only. */
export function LocationsTab() {
  const q = useQuery(locationsQuery());
  const update = useUpdateLocation();
  const [editing, setEditing] = useState<StorageLocation | 'new' | null>(null);
  const setRetired = (l: StorageLocation, retired: boolean) =>
    update.mutate(
      { id: l.id, retired },
      {
        onSuccess: () => toast.success(retired ? 'Location retired' : 'Location in use again', l.name),
        onError: (err) => toast.error('Error', errorMessage(err, 'Failed to save the location')),
      },
    );
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Title order={2} size="h4">
          Storage locations
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setEditing('new')}>
          Add location
        </Button>
      </Group>
      <Text size="sm" c="gray.7">
        A retired location keeps its history and the items still there, and takes no new items.
      </Text>
      {q.isPending ? (
        <RowsSkeleton label="Loading the locations..." rows={3} />
      ) : q.isError ? (
        <LoadError onRetry={() => q.refetch()} retrying={q.isFetching}>
          {errorMessage(q.error, 'Failed to load the locations')}
        </LoadError>
      ) : q.data.length === 0 ? (
        <Text c="gray.7">No locations yet.</Text>
      ) : (
        <ResponsiveTable minWidth={760}>
          <Table striped verticalSpacing="sm" aria-label="Storage locations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Items now</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.map((l) => (
                <Table.Tr key={l.id} data-location-id={l.id}>
                  <Table.Td data-label="Name">{l.name}</Table.Td>
                  <Table.Td data-label="Description">{l.description ?? '—'}</Table.Td>
                  <Table.Td data-label="Items now">{l.itemCount}</Table.Td>
                  <Table.Td data-label="State">
                    {l.retired ? `Retired ${formatDate(l.retiredAt)}` : 'In use'}
                  </Table.Td>
                  <Table.Td data-label="Actions">
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => setEditing(l)}>
                        Edit<VisuallyHidden>{` ${l.name}`}</VisuallyHidden>
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        loading={update.isPending && update.variables?.id === l.id}
                        onClick={() => setRetired(l, !l.retired)}
                      >
                        {l.retired ? 'Use again' : 'Retire'}
                        <VisuallyHidden>{` ${l.name}`}</VisuallyHidden>
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ResponsiveTable>
      )}
      {editing ? <LocationDialog location={editing} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}
