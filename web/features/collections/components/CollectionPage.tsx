import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Container,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconEye, IconFolderPlus, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CollectionDetail } from '../../../../common/contracts/collections';
import { displaySampleId } from '../../../../common/domain/samples';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { detailPageState, LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import type { CollectionScheduleSlot } from '../../../components/slots';
import { SampleThumbnail } from '../../../components/SampleThumbnail';
import { StatusBadge } from '../../../components/StatusBadge';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { collectionQuery, ownSamplesForAdding, useAddSamples } from '../api';
import { purposeLabel, valueText, valueTypeText } from '../format';
import { CollectionProgress } from './CollectionsSection';
import { ImportPanel } from './ImportPanel';

/** The owner's samples that are in no collection yet, to tick and add. */
function AddSamplesDialog({
  collection,
  opened,
  onClose,
}: {
  collection: CollectionDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { token } = useSession();
  const samples = useQuery({ ...ownSamplesForAdding(token), enabled: opened && Boolean(token) });
  const add = useAddSamples(collection.id);
  const [chosen, setChosen] = useState<number[]>([]);
  const free = (samples.data ?? []).filter((s) => s.collectionId === null);
  const close = () => {
    setChosen([]);
    onClose();
  };
  const onAdd = async () => {
    try {
      await add.mutateAsync({ sampleIds: chosen });
      toast.success('Items added', `${chosen.length} item(s) added to "${collection.name}".`);
      close();
    } catch (err) {
      toast.error('Error', errorMessage(err, 'The items could not be added.'));
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Add existing samples" centered>
      {samples.isPending ? (
        <RowsSkeleton label="Loading your samples..." rows={3} height={32} />
      ) : samples.isError ? (
        <LoadError onRetry={() => samples.refetch()} retrying={samples.isFetching}>
          Your samples could not be loaded.
        </LoadError>
      ) : free.length === 0 ? (
        <Text c="dimmed">All your samples are already in a collection.</Text>
      ) : (
        <Checkbox.Group
          label="Samples not yet in a collection"
          value={chosen.map(String)}
          onChange={(v) => setChosen(v.map(Number))}
        >
          <Stack gap="xs" mt="xs">
            {free.map((s) => (
              <Checkbox
                key={s.id}
                value={String(s.id)}
                name="sampleIds"
                label={`${displaySampleId(s.id)} · ${s.itemName}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button onClick={onAdd} disabled={chosen.length === 0 || add.isPending}>
          {add.isPending ? 'Adding...' : 'Add to collection'}
        </Button>
      </Group>
    </Modal>
  );
}

function ItemsTable({ collection }: { collection: CollectionDetail }) {
  if (collection.items.length === 0)
    return (
      <Text c="dimmed">No items yet. Submit a new item into this collection or add existing samples.</Text>
    );
  return (
    <ResponsiveTable minWidth={760}>
      <Table verticalSpacing="sm" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Report</Table.Th>
            <Table.Th>Value</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {collection.items.map((item) => (
            <Table.Tr key={item.id} data-sample-id={item.id}>
              <Table.Td data-label="Item">
                <Group gap="sm" wrap="nowrap">
                  <SampleThumbnail sample={item} size={48} />
                  <div>
                    <Text fw={600}>{item.itemName}</Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {item.displayId} · {formatDate(item.submissionDate)}
                    </Text>
                  </div>
                </Group>
              </Table.Td>
              <Table.Td data-label="Status">
                <Stack gap={4} align="flex-start">
                  <StatusBadge status={item.status} />
                  <CustodyBadge state={item.custody.state} />
                </Stack>
              </Table.Td>
              <Table.Td data-label="Report">
                {item.reportRevoked ? (
                  <Badge color="red" variant="light">
                    Withdrawn
                  </Badge>
                ) : item.reportCode ? (
                  <Text ff="monospace">{item.reportCode}</Text>
                ) : (
                  <Text c="dimmed">Not issued yet</Text>
                )}
              </Table.Td>
              <Table.Td data-label="Value">
                {item.value ? (
                  <div>
                    <Text fw={600}>{valueText(item.value)}</Text>
                    <Text size="xs" c="dimmed">
                      {valueTypeText(item.value)}, {formatDate(item.value.effectiveDate)}
                    </Text>
                  </div>
                ) : (
                  <Text c="dimmed">—</Text>
                )}
              </Table.Td>
              <Table.Td data-label="Actions">
                <Button
                  component={Link}
                  to={`/sample/${item.id}`}
                  size="xs"
                  variant="light"
                  leftSection={<IconEye size={14} aria-hidden="true" />}
                  aria-label={`View ${item.itemName}`}
                >
                  View
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ResponsiveTable>
  );
}

/**
 * /collections/:id: the collection's items with status, custody, report and value, its progress, and
 * for its owner the ways to fill it (docs/product/collections.md); its schedule card comes from the
 * schedules feature (docs/product/schedules.md).
 */
export function CollectionPage({
  scheduleSection: ScheduleSection,
}: { scheduleSection?: CollectionScheduleSlot } = {}) {
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0;
  const { user } = useSession();
  const query = useQuery({ ...collectionQuery(id), enabled: validId });
  const [adding, setAdding] = useState(false);
  usePageTitle(query.data?.name ?? 'Collection', 'A collection of items and their valuations.');

  const state = detailPageState(query, {
    validId,
    notFoundTitle: 'Collection Not Found',
    notFoundText: 'The collection you are looking for does not exist or you do not have access to it.',
    back: (
      <Button component={Link} to="/dashboard" leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
        Back to Dashboard
      </Button>
    ),
    loadingLabel: 'Loading collection...',
    rowHeight: 64,
    errorText: 'The collection could not be loaded.',
  });
  if ('view' in state) return state.view;
  const c = state.data;
  const isOwner = user?.id === c.owner.id;
  return (
    <Container size="lg" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Button
        component={Link}
        to="/dashboard"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
        mb="sm"
        px={0}
      >
        Back to Dashboard
      </Button>
      <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
        <div>
          <Title order={1}>{c.name}</Title>
          <Text c="dimmed">
            {purposeLabel(c.purpose)} · created {formatDate(c.createdAt)}
            {!isOwner && ` · ${[c.owner.firstName, c.owner.lastName].filter(Boolean).join(' ')}`}
          </Text>
        </div>
        {isOwner && (
          <Group gap="sm" wrap="wrap">
            <Button
              component={Link}
              to={`/submit-sample?collection=${c.id}`}
              leftSection={<IconPlus size={16} aria-hidden="true" />}
            >
              Submit a new item
            </Button>
            <Button
              variant="light"
              leftSection={<IconFolderPlus size={16} aria-hidden="true" />}
              onClick={() => setAdding(true)}
            >
              Add existing samples
            </Button>
          </Group>
        )}
      </Group>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="progress-title" mb="lg">
        <Title order={2} size="h3" id="progress-title" mb="sm">
          Progress
        </Title>
        <CollectionProgress progress={c.progress} label={`Progress of ${c.name}`} />
      </Card>

      {ScheduleSection && <ScheduleSection collectionId={c.id} progress={c.progress} />}

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="items-title" mb="lg">
        <Title order={2} size="h3" id="items-title" mb="md">
          Items
        </Title>
        <ItemsTable collection={c} />
      </Card>

      {isOwner && <ImportPanel collection={c} />}
      {!isOwner && (
        <Alert color="gray" variant="light">
          Only the collection's owner can add items to it.
        </Alert>
      )}
      {isOwner && <AddSamplesDialog collection={c} opened={adding} onClose={() => setAdding(false)} />}
    </Container>
  );
}
