import {
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconFolderPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  type CollectionListItem,
  createCollectionBody,
  type CreateCollectionBody,
} from '../../../../common/contracts/collections';
import { PURPOSES } from '../../../../common/domain/samples';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { collectionsQuery, useCreateCollection } from '../api';
import { progressText, purposeLabel } from '../format';

/** A collection's progress bar with its words ("3 of 5 reports issued"). */
export function CollectionProgress({
  progress,
  label,
}: {
  progress: CollectionListItem['progress'];
  label: string;
}) {
  const percent = progress.total ? (progress.reported / progress.total) * 100 : 0;
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" id={id}>
        <VisuallyHidden>{label}: </VisuallyHidden>
        {progressText(progress)}
      </Text>
      <Progress.Root size="md">
        <Progress.Section value={percent} aria-labelledby={id} />
      </Progress.Root>
    </Stack>
  );
}

/** The "New collection" dialog: name and purpose; opens the new collection's page. */
export function NewCollectionDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const create = useCreateCollection();
  const form = useForm<CreateCollectionBody>({
    mode: 'controlled',
    initialValues: { name: '', purpose: '' },
    validate: schemaResolver(createCollectionBody, { sync: true }),
  });
  const onSubmit = form.onSubmit(async (values) => {
    try {
      const created = await create.mutateAsync(values);
      toast.success('Collection created', `"${created.name}" is ready for its items.`);
      form.reset();
      onClose();
      navigate(`/collections/${created.id}`);
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (Object.keys(fields).length) form.setErrors(fields);
      toast.error('Error', errorMessage(err, 'The collection could not be created.'));
    }
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New collection" centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label="Collection name"
            name="name"
            placeholder="e.g. Estate of Margaret Hale"
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <NativeSelect
            label="Purpose"
            name="purpose"
            required
            data={[{ value: '', label: 'Select a purpose' }, ...PURPOSES]}
            {...form.getInputProps('purpose')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} type="button">
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create collection'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The customer dashboard's Collections card: each collection with its purpose and progress. */
export function CollectionsSection() {
  const { token } = useSession();
  const query = useQuery(collectionsQuery(token));
  const [creating, setCreating] = useState(false);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="collections-title" mb="lg">
      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Title order={2} size="h3" id="collections-title">
          Collections
        </Title>
        <Button
          variant="light"
          leftSection={<IconFolderPlus size={16} aria-hidden="true" />}
          onClick={() => setCreating(true)}
        >
          New collection
        </Button>
      </Group>
      {query.isPending ? (
        <RowsSkeleton label="Loading collections..." rows={2} height={48} />
      ) : query.isError ? (
        <LoadError onRetry={() => query.refetch()} retrying={query.isFetching}>
          Your collections could not be loaded.
        </LoadError>
      ) : query.data.length === 0 ? (
        <Text c="dimmed">
          No collections yet. Group the pieces of an estate, a household or a consignment to follow them
          together.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          {query.data.map((c) => (
            <Card key={c.id} withBorder radius="md" padding="md" data-collection-id={c.id}>
              <Stack gap="xs">
                <Anchor component={Link} to={`/collections/${c.id}`} fw={600}>
                  {c.name}
                </Anchor>
                <Text size="sm" c="dimmed">
                  {purposeLabel(c.purpose)}
                </Text>
                <CollectionProgress progress={c.progress} label={`Progress of ${c.name}`} />
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <NewCollectionDialog opened={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
