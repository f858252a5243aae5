import { Anchor, Button, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { SampleListItem } from '../../../../common/contracts/samples';
import { ASSIGN_REQUIRED_MESSAGE } from '../../../../common/contracts/workflow';
import {
  clientLabel,
  displaySampleId,
  normalizeStatus,
  personFullName,
} from '../../../../common/domain/samples';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { SampleThumbnail } from '../../../components/SampleThumbnail';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { adminSamplesQuery, staffUsersQuery, useAssignSample, useStartAnalysis } from '../api';
import { reason } from './messages';
import { Pager } from './Pager';
import type { SendQuoteDialogSlot } from '../../../components/slots';
import { ExpectedDate, QuoteBadge, SendQuoteAction } from '../../../components/Turnaround';

/** 'Start Analysis' is offered to the assigned person while the work has not started (or is on hold). */
const canStart = (s: SampleListItem, userId: number) =>
  s.assignedStaffId === userId && ['submitted', 'on-hold'].includes(normalizeStatus(s.status));

function AssignControl({
  sample,
  staff,
}: {
  sample: SampleListItem;
  staff: { value: string; label: string }[];
}) {
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const assign = useAssignSample();
  const id = displaySampleId(sample.id);
  const submit = () => {
    if (!choice) {
      setError(ASSIGN_REQUIRED_MESSAGE);
      return;
    }
    setError(null);
    assign.mutate(
      { id: sample.id, staffId: Number(choice) },
      {
        onSuccess: () => {
          toast.success('Sample assigned');
          setChoice('');
        },
        onError: (err) => toast.error('Error', `Failed to assign sample: ${reason(err)}`),
      },
    );
  };
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <NativeSelect
        size="xs"
        name="staffId"
        aria-label={`Staff member for ${id}`}
        value={choice}
        onChange={(e) => {
          setChoice(e.currentTarget.value);
          setError(null);
        }}
        data={[{ value: '', label: 'Select staff' }, ...staff]}
        error={error}
      />
      <Button
        size="xs"
        variant="light"
        onClick={submit}
        loading={assign.isPending}
        aria-label={`Assign ${id}`}
      >
        Assign
      </Button>
    </Group>
  );
}

export function SamplesTab({
  isAdmin,
  userId,
  quoteDialog,
}: {
  isAdmin: boolean;
  userId: number;
  quoteDialog?: SendQuoteDialogSlot;
}) {
  const [page, setPage] = useState(1);
  const samples = useQuery(adminSamplesQuery(page));
  const staff = useQuery({ ...staffUsersQuery(), enabled: isAdmin });
  const start = useStartAnalysis();
  const staffOptions = (staff.data ?? []).map((u) => ({
    value: String(u.id),
    label: personFullName(u) || u.email,
  }));

  if (samples.isPending) return <RowsSkeleton label="Loading samples..." rows={5} />;
  if (samples.isError)
    return (
      <LoadError onRetry={() => samples.refetch()} retrying={samples.isFetching}>
        {`Failed to load samples: ${reason(samples.error)}`}
      </LoadError>
    );
  const rows = samples.data.rows;
  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text c="gray.7">No samples found.</Text>
      ) : (
        <ResponsiveTable minWidth={isAdmin ? 1040 : 820}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Item</Table.Th>
                <Table.Th>Client</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Assigned Staff</Table.Th>
                <Table.Th>Submitted</Table.Th>
                <Table.Th>Expected</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id} data-sample-id={s.id}>
                  <Table.Td data-label="ID" style={{ whiteSpace: 'nowrap' }}>
                    {displaySampleId(s.id)}
                  </Table.Td>
                  <Table.Td data-label="Item">
                    <Group gap="sm" wrap="nowrap">
                      <SampleThumbnail sample={s} size={40} />
                      <Anchor component={Link} to={`/sample/${s.id}`} fw={600}>
                        {s.itemName}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="Client">{clientLabel(s)}</Table.Td>
                  <Table.Td data-label="Status">
                    <Group gap={4}>
                      <StatusBadge status={s.status} />
                      <QuoteBadge status={s.quoteStatus} forLab />
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="Assigned Staff">
                    {personFullName(s.assignedStaff) || 'Unassigned'}
                  </Table.Td>
                  <Table.Td data-label="Submitted">{formatDate(s.submissionDate)}</Table.Td>
                  <Table.Td data-label="Expected">
                    <ExpectedDate date={s.expectedCompletionDate} overdue={s.overdue} />
                  </Table.Td>
                  <Table.Td data-label="Actions">
                    <Group gap="xs">
                      {isAdmin ? <AssignControl sample={s} staff={staffOptions} /> : null}
                      {canStart(s, userId) ? (
                        <Button
                          size="xs"
                          onClick={() =>
                            start.mutate(s.id, {
                              onSuccess: () => toast.success('Sample status updated'),
                              onError: (err) =>
                                toast.error('Error', `Failed to update sample status: ${reason(err)}`),
                            })
                          }
                          loading={start.isPending && start.variables === s.id}
                        >
                          Start Analysis
                        </Button>
                      ) : null}
                      {/* Quotes come from an admin or the assigned staff member (docs/product/quotes.md). */}
                      {isAdmin || s.assignedStaffId === userId ? (
                        <SendQuoteAction sample={s} dialog={quoteDialog} />
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
        total={samples.data.total}
        label="Samples pages"
        onPage={setPage}
      />
    </Stack>
  );
}
