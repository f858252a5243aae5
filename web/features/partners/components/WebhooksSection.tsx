import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { Webhook, WebhookCreated, WebhookDelivery } from '../../../../common/contracts/webhooks';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from '../../../../common/domain/webhooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { deliveriesQuery, useCreateWebhook, useDeleteWebhook, useSendDelivery, webhooksQuery } from '../api';
import { ShownOnce } from './ApiKeysSection';

function AddWebhookForm({ onCreated }: { onCreated: (hook: WebhookCreated) => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['report.issued']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (!url.trim()) local.url = 'Enter a valid http:// or https:// URL';
    if (events.length === 0) local.events = 'Choose at least one event';
    setErrors(local);
    if (Object.keys(local).length) return;
    create.mutate(
      { url, events: events as WebhookEvent[] },
      {
        onSuccess: (hook) => {
          setUrl('');
          onCreated(hook);
        },
        onError: (err) => {
          setErrors(serverFieldErrors(err));
          toast.error('Error', errorMessage(err, 'The webhook could not be added'));
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="webhooks-new">
      <Stack gap="sm">
        <Title order={3} size="h5" id="webhooks-new">
          Add a webhook
        </Title>
        <TextInput
          label="Endpoint URL"
          name="url"
          type="url"
          placeholder="https://example.com/lab-events"
          value={url}
          error={errors.url}
          onChange={(e) => setUrl(e.currentTarget.value)}
        />
        <Checkbox.Group
          label="Events"
          name="events"
          value={events}
          onChange={setEvents}
          error={errors.events}
        >
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={`${event}: ${WEBHOOK_EVENT_LABELS[event]}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Add webhook
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const STATE_LABEL = { delivered: 'Delivered', failed: 'Failed', pending: 'Pending' } as const;
const STATE_COLOR = { delivered: 'teal', failed: 'red', pending: 'gray' } as const;

/** One delivery: its event, state, and every attempt with the endpoint's answer. */
function DeliveryRow({ delivery, onSendAgain }: { delivery: WebhookDelivery; onSendAgain: () => void }) {
  const n = delivery.attempts.length;
  return (
    <Paper component="li" withBorder p="xs" radius="sm" data-delivery-id={delivery.id}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap={6} wrap="wrap">
            <Code>{delivery.event}</Code>
            <Badge color={STATE_COLOR[delivery.state]}>{STATE_LABEL[delivery.state]}</Badge>
          </Group>
          <Button size="xs" variant="light" onClick={onSendAgain}>
            Send again
            <VisuallyHidden>
              {' '}
              {delivery.event} of {formatDateTime(delivery.createdAt)}
            </VisuallyHidden>
          </Button>
        </Group>
        <Text size="xs" c="dark.3">
          {formatDateTime(delivery.createdAt)} · {n} attempt{n === 1 ? '' : 's'} ·{' '}
          <span style={{ wordBreak: 'break-all' }}>{delivery.messageId}</span>
        </Text>
        {n > 0 && (
          <Stack
            component="ol"
            gap={2}
            aria-label="Attempts"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {delivery.attempts.map((a, i) => (
              <Text component="li" key={`${a.at}-${i}`} size="xs" style={{ overflowWrap: 'anywhere' }}>
                {formatDateTime(a.at)}: {a.statusCode === null ? 'no answer' : `answer ${a.statusCode}`} in{' '}
                {a.durationMs} ms{a.response ? ` · ${a.response.slice(0, 200)}` : ''}
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function DeliveryLog({ hook }: { hook: Webhook }) {
  // Refreshed every 3 s while a delivery is still pending, every 30 s otherwise (new events).
  const query = useQuery({
    ...deliveriesQuery(hook.id),
    refetchInterval: (q) => (q.state.data?.some((d) => d.state === 'pending') ? 3000 : 30_000),
  });
  const send = useSendDelivery(hook.id);
  const sendIt = (deliveryId: number | null) =>
    send.mutate(deliveryId, {
      onSuccess: () =>
        toast.success(deliveryId === null ? 'Test event sent' : 'Sent again', 'See the delivery log.'),
      onError: (err) => toast.error('Error', errorMessage(err, 'The event could not be sent')),
    });
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3} size="h6">
          Delivery log
        </Title>
        <Button size="xs" variant="light" onClick={() => sendIt(null)} loading={send.isPending}>
          Send test event
        </Button>
      </Group>
      {query.isPending ? (
        <Group gap="sm" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading deliveries...</Text>
        </Group>
      ) : query.isError ? (
        <Alert color="red" title="Error" role="alert">
          {errorMessage(query.error, 'The delivery log could not be loaded')}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text size="sm">No deliveries yet.</Text>
      ) : (
        <Stack
          gap={6}
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label={`Deliveries to ${hook.url}`}
        >
          {query.data.map((d) => (
            <DeliveryRow key={d.id} delivery={d} onSendAgain={() => sendIt(d.id)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function WebhookCard({ hook }: { hook: Webhook }) {
  const remove = useDeleteWebhook();
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="sm" radius="sm" data-webhook-id={hook.id}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
            {hook.url}
          </Text>
          <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
            Delete webhook<VisuallyHidden> {hook.url}</VisuallyHidden>
          </Button>
        </Group>
        <Text size="xs" c="dark.3">
          Added {formatDateTime(hook.createdAt)}
        </Text>
        <Group gap={4}>
          {hook.events.map((e) => (
            <Badge key={e} variant="light" color="dark" tt="none">
              {e}
            </Badge>
          ))}
        </Group>
        <DeliveryLog hook={hook} />
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(hook.id, {
            onSuccess: () => {
              toast.success('Webhook deleted', 'Nothing more is sent to it.');
              setConfirming(false);
            },
            onError: (err) => toast.error('Error', errorMessage(err, 'The webhook could not be deleted')),
          })
        }
      >
        <Text size="sm">Nothing more is sent to {hook.url}, and its delivery log is removed.</Text>
      </ConfirmDialog>
    </Paper>
  );
}

/** The profile's "Webhooks" section (docs/product/partners.md): customers and admins. */
export function WebhooksSection() {
  const query = useQuery(webhooksQuery());
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  return (
    <Paper withBorder p="lg" radius="md" mt="lg" component="section" aria-labelledby="webhooks-title">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4" id="webhooks-title">
            Webhooks
          </Title>
          <Text size="sm" c="dark.3">
            The lab calls your system when something happens, signed with the secret shown when you add it.
          </Text>
        </Stack>
        {created && (
          <ShownOnce label="Signing secret" value={created.secret} onDone={() => setCreated(null)} />
        )}
        {query.isPending ? (
          <Group gap="sm" role="status">
            <Loader size="xs" aria-hidden="true" />
            <Text size="sm">Loading webhooks...</Text>
          </Group>
        ) : query.isError ? (
          <Alert color="red" title="Error" role="alert">
            {errorMessage(query.error, 'The webhooks could not be loaded')}
          </Alert>
        ) : query.data.length === 0 ? (
          <Text size="sm">No webhooks yet.</Text>
        ) : (
          query.data.map((hook) => <WebhookCard key={hook.id} hook={hook} />)
        )}
        <AddWebhookForm onCreated={setCreated} />
      </Stack>
    </Paper>
  );
}
