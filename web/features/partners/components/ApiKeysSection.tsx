import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { ApiKeyCreated, ApiKeyListItem } from '../../../../common/contracts/api-keys';
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, type ApiKeyScope } from '../../../../common/domain/api-keys';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { apiKeysQuery, useCreateApiKey, useRevokeApiKey } from '../api';

/** A secret the server shows once, with a copy button and the warning that it will not come back. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  return (
    <Alert color="teal" title={`${label}: copy it now`} role="status">
      <Stack gap="xs">
        <Text size="sm">
          It is shown only this once. Store it somewhere safe; if it is lost, make a new one.
        </Text>
        <Code block data-testid="shown-once" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <Group gap="xs">
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" variant="subtle" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: ApiKeyCreated) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['samples:read']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Name is required';
    if (scopes.length === 0) local.scopes = 'Choose at least one scope';
    setErrors(local);
    if (Object.keys(local).length) return;
    create.mutate(
      { name, scopes: scopes as ApiKeyScope[] },
      {
        onSuccess: (created) => {
          setName('');
          onCreated(created);
        },
        onError: (err) => {
          setErrors(serverFieldErrors(err));
          toast.error('Error', errorMessage(err, 'The key could not be created'));
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="api-keys-new">
      <Stack gap="sm">
        <Title order={3} size="h5" id="api-keys-new">
          New key
        </Title>
        <TextInput
          label="Key name"
          name="name"
          description="Whom or what it is for, e.g. the insurer's system"
          value={name}
          maxLength={100}
          error={errors.name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Checkbox.Group
          label="Scopes"
          name="scopes"
          value={scopes}
          onChange={setScopes}
          error={errors.scopes}
        >
          <Stack gap={6} mt={6}>
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} label={`${scope}: ${API_KEY_SCOPE_LABELS[scope]}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function KeyList({ keys }: { keys: ApiKeyListItem[] }) {
  const revoke = useRevokeApiKey();
  const [target, setTarget] = useState<ApiKeyListItem | null>(null);
  if (keys.length === 0) return <Text size="sm">No API keys yet.</Text>;
  return (
    <>
      <ResponsiveTable minWidth={560}>
        <Table striped aria-label="Your API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Scopes</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td data-label="Name">
                  <div>
                    <Text size="sm" fw={600}>
                      {key.name}
                    </Text>
                    <Code>{key.prefix}…</Code>
                  </div>
                </Table.Td>
                <Table.Td data-label="Scopes">
                  <Group gap={4}>
                    {key.scopes.map((s) => (
                      <Badge key={s} variant="light" color="dark" tt="none">
                        {s}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td data-label="Created">{formatDateTime(key.createdAt)}</Table.Td>
                <Table.Td data-label="Last used">
                  {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}
                </Table.Td>
                <Table.Td>
                  <Button size="xs" color="red" variant="light" onClick={() => setTarget(key)}>
                    Revoke <VisuallyHidden>{key.name}</VisuallyHidden>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ResponsiveTable>
      <ConfirmDialog
        opened={target !== null}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        loading={revoke.isPending}
        onClose={() => setTarget(null)}
        onConfirm={() =>
          target &&
          revoke.mutate(target.id, {
            onSuccess: () => {
              toast.success('Key revoked', `"${target.name}" no longer works.`);
              setTarget(null);
            },
            onError: (err) => toast.error('Error', errorMessage(err, 'The key could not be revoked')),
          })
        }
      >
        <Text size="sm">
          Every system using “{target?.name}” is refused from now on. This cannot be undone.
        </Text>
      </ConfirmDialog>
    </>
  );
}

/** The profile's "API keys" section (docs/product/partners.md): customers and admins. */
export function ApiKeysSection() {
  const query = useQuery(apiKeysQuery());
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  return (
    <Paper withBorder p="lg" radius="md" mt="lg" component="section" aria-labelledby="api-keys-title">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4" id="api-keys-title">
            API keys
          </Title>
          <Text size="sm" c="dark.3">
            Let another system work with your data: a key acts as you, for the scopes you give it.
          </Text>
        </Stack>
        {created && <ShownOnce label="API key" value={created.key} onDone={() => setCreated(null)} />}
        {query.isPending ? (
          <Group gap="sm" role="status">
            <Loader size="xs" aria-hidden="true" />
            <Text size="sm">Loading API keys...</Text>
          </Group>
        ) : query.isError ? (
          <Alert color="red" title="Error" role="alert">
            {errorMessage(query.error, 'The API keys could not be loaded')}
          </Alert>
        ) : (
          <KeyList keys={query.data} />
        )}
        <CreateKeyForm onCreated={setCreated} />
      </Stack>
    </Paper>
  );
}
