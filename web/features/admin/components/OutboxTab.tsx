import { Alert, Button, Code, Group, Loader, Modal, Stack, Tabs, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { MailState, OutboxItem } from '../../../../common/contracts/mail';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { outboxMailQuery, outboxQuery, useRetryMail } from '../api';
import { reason } from './messages';
import { type Column, NO_WRAP, PagedTable, StateBadge } from './PagedTable';

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
/**
 * An address that may wrap only after its "@" or a dot (ada.lovelace@<wbr>example.<wbr>com), never in
 * the middle of a word, so a narrow column still reads as an address.
 */
function EmailAddress({ address }: { address: string }) {
  const parts = address.split(/(?<=[@.])/);
  return (
    <span style={{ wordBreak: 'keep-all' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}

export function OutboxTab() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<OutboxItem | null>(null);
  const outbox = useQuery(outboxQuery(page));
  const retry = useRetryMail();
  const resend = (mail: OutboxItem) =>
    retry.mutate(mail.id, {
      onSuccess: () => toast.success('Mail queued again', `To ${mail.toAddress}`),
      onError: (err) => toast.error('Error', `Failed to retry the mail: ${reason(err)}`),
    });
  const columns: Column<OutboxItem>[] = [
    { label: 'Recipient', cell: (m) => <EmailAddress address={m.toAddress} /> },
    { label: 'Subject', cell: (m) => m.subject },
    {
      label: 'State',
      cell: (m) => <StateBadge color={STATE_COLOR[m.state]}>{m.state}</StateBadge>,
      style: NO_WRAP,
    },
    { label: 'Attempts', cell: (m) => m.attempts },
    { label: 'Last error', cell: (m) => m.lastError ?? '—', style: { wordBreak: 'break-word' } },
    { label: 'Queued', cell: (m) => formatDateTime(m.createdAt), style: NO_WRAP },
    {
      label: 'Actions',
      cell: (m) => (
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
      ),
    },
  ];
  return (
    <PagedTable
      query={outbox}
      rowsOf={(data) => data.mails}
      loading="Loading the outbox..."
      failure={(why) => `Failed to load the outbox: ${why}. Please try again.`}
      columns={columns}
      idAttribute="data-mail-id"
      minWidth={1000}
      empty={page === 1 ? 'No mails yet.' : `No mails on page ${page}.`}
      page={page}
      onPage={setPage}
      pagerLabel="Outbox pages"
      above={({ smtpConfigured }) =>
        smtpConfigured ? null : (
          <Alert color="blue" title="No mail server configured">
            SMTP_URL is not set, so mails are kept here instead of being sent. Set it and restart the server
            to deliver the waiting ones.
          </Alert>
        )
      }
      below={open ? <MailDialog mail={open} onClose={() => setOpen(null)} /> : null}
    />
  );
}
