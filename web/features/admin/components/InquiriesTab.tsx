import { Alert, Badge, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { InquiryStatus } from '../../../../common/contracts/inquiries';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { inquiriesQuery, useSetInquiryStatus } from '../api';
import { reason } from './messages';
import { Pager } from './Pager';

const MESSAGE_PREVIEW = 60;
const truncate = (text: string) =>
  text.length > MESSAGE_PREVIEW ? `${text.slice(0, MESSAGE_PREVIEW).trimEnd()}…` : text;

const STATUS_COLOR: Record<string, string> = { new: 'blue', pending: 'yellow', responded: 'teal' };

export function InquiriesTab() {
  const [page, setPage] = useState(1);
  const inquiries = useQuery(inquiriesQuery(page));
  const setStatus = useSetInquiryStatus();
  if (inquiries.isPending) return <Loader aria-label="Loading inquiries" />;
  if (inquiries.isError)
    return (
      <Alert color="red" role="alert">
        {`Failed to load inquiries: ${reason(inquiries.error)}. Please try again.`}
      </Alert>
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
        <Table.ScrollContainer minWidth={1100}>
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
                  <Table.Td>{q.id}</Table.Td>
                  <Table.Td>{`${q.firstName} ${q.lastName}`}</Table.Td>
                  <Table.Td>{q.email}</Table.Td>
                  <Table.Td>{q.subject}</Table.Td>
                  <Table.Td title={q.message}>{truncate(q.message)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      color={STATUS_COLOR[q.status] ?? 'gray'}
                      variant="light"
                      tt="capitalize"
                      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                    >
                      {q.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(q.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
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
        </Table.ScrollContainer>
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
