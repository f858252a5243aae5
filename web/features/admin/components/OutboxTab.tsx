import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Tabs,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MailState, OutboxItem } from '../../../../common/contracts/mail';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { outboxMailQuery, outboxQuery, useRetryMail } from '../api';
import { reason } from './messages';
import { Pager } from './Pager';

const STATE_COLOR: Record<MailState, string> = { pending: 'yellow', sent: 'teal', failed: 'red' };

/** Failed for good, or waiting for its next attempt after an error: Retry sends it now. */
const retriable = (m: OutboxItem) => m.state === 'failed' || (m.state === 'pending' && m.lastError !== null);

/** The mail as it was (or will be) sent: the HTML in a sandboxed frame, the plain text, the headers. */
function MailDialog({ mail, onClose }: { mail: OutboxItem; onClose: () => void }) {
  const detail = useQuery(outboxMailQuery(mail.id));
  return (
    <Modal opened onClose={onClose} title={mail.subject} size="xl">
      <Stack gap="sm">
        <Text size="sm" c="gray.7">
          {`To ${mail.toAddress} · ${formatDateTime(mail.createdAt)} · ${mail.state}`}
        </Text>
        {detail.isPending ? (
          <Loader size="sm" aria-label="Loading the mail" />
        ) : detail.isError ? (
          <Alert color="red" role="alert">
            {`Failed to load the mail: ${reason(detail.error)}`}
          </Alert>
        ) : (
          <Tabs defaultValue="html">
            <Tabs.List>
              <Tabs.Tab value="html">Message</Tabs.Tab>
              <Tabs.Tab value="text">Plain text</Tabs.Tab>
              <Tabs.Tab value="headers">Headers</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="html" pt="sm">
              {/* No scripts, no same-origin access: the mail is shown, never run. */}
              <iframe
                title={`Message: ${mail.subject}`}
                sandbox=""
                srcDoc={detail.data.html}
                style={{ width: '100%', height: '60vh', border: '1px solid var(--mantine-color-gray-3)' }}
              />
            </Tabs.Panel>
            <Tabs.Panel value="text" pt="sm">
              <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: '60vh', overflow: 'auto' }}>
                {detail.data.text}
              </Code>
            </Tabs.Panel>
            <Tabs.Panel value="headers" pt="sm">
              <Code block style={{ whiteSpace: 'pre-wrap' }}>
                {Object.entries(detail.data.headers)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join('\n') || 'No extra headers'}
              </Code>
            </Tabs.Panel>
          </Tabs>
        )}
      </Stack>
    </Modal>
  );
}

/** The admin dashboard's Outbox (docs/product/mail.md): every mail, its state, and Retry for failing ones. */
export function OutboxTab() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<OutboxItem | null>(null);
  const outbox = useQuery(outboxQuery(page));
  const retry = useRetryMail();
  if (outbox.isPending) return <RowsSkeleton label="Loading the outbox..." rows={5} />;
  if (outbox.isError)
    return (
      <LoadError onRetry={() => outbox.refetch()} retrying={outbox.isFetching}>
        {`Failed to load the outbox: ${reason(outbox.error)}. Please try again.`}
      </LoadError>
    );
  const { mails, total, smtpConfigured } = outbox.data;
  const resend = (mail: OutboxItem) =>
    retry.mutate(mail.id, {
      onSuccess: () => toast.success('Mail queued again', `To ${mail.toAddress}`),
      onError: (err) => toast.error('Error', `Failed to retry the mail: ${reason(err)}`),
    });
  return (
    <Stack gap="sm">
      {smtpConfigured ? null : (
        <Alert color="blue" title="No mail server configured">
          SMTP_URL is not set, so mails are kept here instead of being sent. Set it and restart the server to
          deliver the waiting ones.
        </Alert>
      )}
      {mails.length === 0 ? (
        <Text c="gray.7">{page === 1 ? 'No mails yet.' : `No mails on page ${page}.`}</Text>
      ) : (
        <ResponsiveTable minWidth={1000}>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recipient</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>Queued</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mails.map((m) => (
                <Table.Tr key={m.id} data-mail-id={m.id}>
                  <Table.Td data-label="Recipient" style={{ overflowWrap: 'anywhere' }}>
                    {m.toAddress}
                  </Table.Td>
                  <Table.Td data-label="Subject">{m.subject}</Table.Td>
                  <Table.Td data-label="State" style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      color={STATE_COLOR[m.state]}
                      variant="light"
                      tt="capitalize"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {m.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Attempts">{m.attempts}</Table.Td>
                  <Table.Td data-label="Last error" style={{ wordBreak: 'break-word' }}>
                    {m.lastError ?? '—'}
                  </Table.Td>
                  <Table.Td data-label="Queued" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(m.createdAt)}
                  </Table.Td>
                  <Table.Td data-label="Actions">
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => setOpen(m)} aria-haspopup="dialog">
                        View<VisuallyHidden>{` the mail to ${m.toAddress}: ${m.subject}`}</VisuallyHidden>
                      </Button>
                      {retriable(m) ? (
                        <Button
                          size="xs"
                          variant="default"
                          loading={retry.isPending && retry.variables === m.id}
                          onClick={() => resend(m)}
                        >
                          Retry<VisuallyHidden>{` the mail to ${m.toAddress}`}</VisuallyHidden>
                        </Button>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ResponsiveTable>
      )}
      <Pager page={page} rows={mails.length} total={total} label="Outbox pages" onPage={setPage} />
      {open ? <MailDialog mail={open} onClose={() => setOpen(null)} /> : null}
    </Stack>
  );
}
