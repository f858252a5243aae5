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
  VisuallyHidden,
} from '@mantine/core';
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
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { formatDate, formatDateTime } from '../../../lib/format';
import { focusFirstError } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { inquiriesQuery, useReplyToInquiry, useSetInquiryStatus } from '../api';
import { reason } from './messages';
import { Pager } from './Pager';

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
  const setStatus = useSetInquiryStatus();
  if (inquiries.isPending) return <RowsSkeleton label="Loading inquiries..." rows={5} />;
  if (inquiries.isError)
    return (
      <LoadError onRetry={() => inquiries.refetch()} retrying={inquiries.isFetching}>
        {`Failed to load inquiries: ${reason(inquiries.error)}. Please try again.`}
      </LoadError>
    );
  const rows = inquiries.data.rows;
  const mark = (id: number, status: InquiryStatus) =>
    setStatus.mutate(
      { id, status },
      {
        onSuccess: () => toast.success('Inquiry status updated'),
        onError: (err) => toast.error('Error', `Failed to update inquiry status: ${reason(err)}`),
      },
    );
  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text c="gray.7">{`No inquiries found for page ${page}.`}</Text>
      ) : (
        <ResponsiveTable minWidth={1100}>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((q) => (
                <Table.Tr key={q.id} data-inquiry-id={q.id}>
                  <Table.Td data-label="ID">{q.id}</Table.Td>
                  <Table.Td data-label="Name">{`${q.firstName} ${q.lastName}`}</Table.Td>
                  <Table.Td data-label="Email">{q.email}</Table.Td>
                  <Table.Td data-label="Subject">{contactSubjectLabel(q.subject)}</Table.Td>
                  <Table.Td data-label="Message">
                    <MessageCell inquiry={q} />
                  </Table.Td>
                  <Table.Td data-label="Status" style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      color={STATUS_COLOR[q.status] ?? 'gray'}
                      variant="light"
                      tt="capitalize"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {q.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label="Received" style={{ whiteSpace: 'nowrap' }}>
                    {formatDate(q.createdAt)}
                  </Table.Td>
                  <Table.Td data-label="Actions">
                    <Group gap="xs">
                      <ReplyButton inquiry={q} />
                      {q.status !== 'responded' ? (
                        <Button
                          size="xs"
                          variant="light"
                          color="teal"
                          onClick={() => mark(q.id, 'responded')}
                        >
                          Mark Responded
                        </Button>
                      ) : null}
                      {q.status !== 'pending' ? (
                        <Button size="xs" variant="default" onClick={() => mark(q.id, 'pending')}>
                          Mark Pending
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
      <Pager
        page={page}
        rows={rows.length}
        total={inquiries.data.total}
        label="Inquiries pages"
        onPage={setPage}
      />
    </Stack>
  );
}
