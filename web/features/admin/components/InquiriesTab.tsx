import { Alert, Button, Group, Modal, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { contactSubjectLabel } from '../../../../common/contracts/contact';
import {
  type ContactInquiry,
  INQUIRY_REPLY_MAX,
  type InquiryReplyRequest,
  type InquiryStatus,
  inquiryReplyRequest,
} from '../../../../common/contracts/inquiries';
import { formatDate, formatDateTime } from '../../../lib/format';
import { focusFirstError } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { exportInquiriesCsv, inquiriesQuery, useReplyToInquiry, useSetInquiryStatus } from '../api';
import { IconDownload } from '@tabler/icons-react';
import { reason } from './messages';
import { type Column, NO_WRAP, PagedTable, StateBadge } from './PagedTable';

const MESSAGE_PREVIEW = 60;
const truncate = (text: string) =>
  text.length > MESSAGE_PREVIEW ? `${text.slice(0, MESSAGE_PREVIEW).trimEnd()}…` : text;

/** The first words in the table; the whole message opens in a dialog. */
function MessageCell({ inquiry }: { inquiry: ContactInquiry }) {
  const [open, setOpen] = useState(false);
  const name = `${inquiry.firstName} ${inquiry.lastName}`;
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm">{truncate(inquiry.message)}</Text>
      <Button size="compact-xs" variant="subtle" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Read message<VisuallyHidden>{` from ${name}`}</VisuallyHidden>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Message from ${name}`} size="lg">
        <Stack gap="xs">
          <Text size="sm" c="gray.7">
            {`${inquiry.email} · ${inquiry.subject} · ${formatDate(inquiry.createdAt)}`}
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{inquiry.message}</Text>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Reply by mail (docs/product/mail.md): the reply is stored and sent, the inquiry becomes responded. */
function ReplyButton({ inquiry }: { inquiry: ContactInquiry }) {
  const [open, setOpen] = useState(false);
  const reply = useReplyToInquiry();
  const form = useForm<InquiryReplyRequest>({
    mode: 'controlled',
    initialValues: { message: '' },
    validate: schemaResolver(inquiryReplyRequest, { sync: true }),
  });
  const name = `${inquiry.firstName} ${inquiry.lastName}`;
  const submit = form.onSubmit(
    (values) =>
      reply.mutate(
        { id: inquiry.id, message: values.message },
        {
          onSuccess: () => {
            setOpen(false);
            form.reset();
            toast.success('Reply sent', `Mailed to ${inquiry.email}`);
          },
          onError: (err) => toast.error('Error', `Failed to send the reply: ${reason(err)}`),
        },
      ),
    focusFirstError,
  );
  return (
    <>
      <Button size="xs" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Reply<VisuallyHidden>{` to ${name}`}</VisuallyHidden>
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Reply to ${name}`} size="lg">
        <Stack gap="sm">
          <Text size="sm" c="gray.7">
            {`${inquiry.email} · ${contactSubjectLabel(inquiry.subject)} · ${formatDate(inquiry.createdAt)}`}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} bg="gray.0" p="sm">
            {inquiry.message}
          </Text>
          {inquiry.replyMessage ? (
            <Alert color="teal" title={`Replied ${formatDateTime(inquiry.repliedAt)}`}>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {inquiry.replyMessage}
              </Text>
            </Alert>
          ) : null}
          <form onSubmit={submit} noValidate aria-label={`Reply to ${name}`}>
            <Stack gap="sm">
              <Textarea
                label="Your reply"
                name="message"
                description={`Sent by e-mail to ${inquiry.email}`}
                withAsterisk
                autosize
                minRows={5}
                maxRows={14}
                maxLength={INQUIRY_REPLY_MAX}
                data-autofocus
                {...form.getInputProps('message')}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" loading={reply.isPending}>
                  Send reply
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Modal>
    </>
  );
}

const STATUS_COLOR: Record<string, string> = { new: 'blue', pending: 'yellow', responded: 'teal' };

export function InquiriesTab() {
  const [page, setPage] = useState(1);
  const inquiries = useQuery(inquiriesQuery(page));
  const [exporting, setExporting] = useState(false);
  const setStatus = useSetInquiryStatus();
  const mark = (id: number, status: InquiryStatus) =>
    setStatus.mutate(
      { id, status },
      {
        onSuccess: () => toast.success('Inquiry status updated'),
        onError: (err) => toast.error('Error', `Failed to update inquiry status: ${reason(err)}`),
      },
    );
  const columns: Column<ContactInquiry>[] = [
    { label: 'ID', cell: (q) => q.id },
    { label: 'Name', cell: (q) => `${q.firstName} ${q.lastName}` },
    { label: 'Email', cell: (q) => q.email },
    { label: 'Subject', cell: (q) => contactSubjectLabel(q.subject) },
    { label: 'Message', cell: (q) => <MessageCell inquiry={q} /> },
    {
      label: 'Status',
      cell: (q) => <StateBadge color={STATUS_COLOR[q.status] ?? 'gray'}>{q.status}</StateBadge>,
      style: NO_WRAP,
    },
    { label: 'Received', cell: (q) => formatDate(q.createdAt), style: NO_WRAP },
    {
      label: 'Actions',
      cell: (q) => (
        <Group gap="xs">
          <ReplyButton inquiry={q} />
          {q.status !== 'responded' ? (
            <Button size="xs" variant="light" color="teal" onClick={() => mark(q.id, 'responded')}>
              Mark Responded
            </Button>
          ) : null}
          {q.status !== 'pending' ? (
            <Button size="xs" variant="default" onClick={() => mark(q.id, 'pending')}>
              Mark Pending
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];
  return (
    <PagedTable
      query={inquiries}
      rowsOf={(data) => data.rows}
      loading="Loading inquiries..."
      failure={(why) => `Failed to load inquiries: ${why}. Please try again.`}
      columns={columns}
      idAttribute="data-inquiry-id"
      minWidth={1100}
      empty={`No inquiries found for page ${page}.`}
      page={page}
      onPage={setPage}
      pagerLabel="Inquiries pages"
      above={() => (
        <Group justify="flex-end">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            loading={exporting}
            onClick={async () => {
              setExporting(true);
              try {
                await exportInquiriesCsv();
              } catch (err) {
                toast.error('Error', `Failed to export inquiries: ${reason(err)}`);
              } finally {
                setExporting(false);
              }
            }}
          >
            Export CSV
          </Button>
        </Group>
      )}
    />
  );
}
