import { Anchor, Button, Group, NativeSelect, Stack } from '@mantine/core';
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
import { SampleThumbnail } from '../../../components/SampleThumbnail';
import { StatusBadge } from '../../../components/StatusBadge';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import {
  adminSamplesQuery,
  exportSamplesCsv,
  staffUsersQuery,
  useAssignSample,
  useStartAnalysis,
} from '../api';
import { SampleFilters } from '../../../components/SampleFilters';
import { isFiltered, useListView } from '../../../lib/sample-filters';
import { MAX_PAGED_ROWS } from '../../../../common/contracts/sample-search';
import { reason } from './messages';
import { type Column, NO_WRAP, PagedTable } from './PagedTable';
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
  // The selector starts on the current assignee, so the row says who has the sample now. (Not keyed
  // by the assignee: a remount when the list refreshes would drop the mutation's success toast.)
  const [choice, setChoice] = useState(sample.assignedStaffId ? String(sample.assignedStaffId) : '');
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
        onSuccess: () => toast.success('Sample assigned'),
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
  const { view, setFilters, setPage } = useListView();
  const samples = useQuery(adminSamplesQuery(view));
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportSamplesCsv(view.filters);
    } catch (err) {
      toast.error('Error', `Failed to export samples: ${reason(err)}`);
    } finally {
      setExporting(false);
    }
  };
  const staff = useQuery({ ...staffUsersQuery(), enabled: isAdmin });
  const start = useStartAnalysis();
  const staffOptions = (staff.data ?? []).map((u) => ({
    value: String(u.id),
    label: personFullName(u) || u.email,
  }));

  const columns: Column<SampleListItem>[] = [
    { label: 'ID', cell: (s) => displaySampleId(s.id), style: NO_WRAP },
    {
      label: 'Item',
      cell: (s) => (
        <Group gap="sm" wrap="nowrap">
          <SampleThumbnail sample={s} size={40} />
          <Anchor component={Link} to={`/sample/${s.id}`} fw={600}>
            {s.itemName}
          </Anchor>
        </Group>
      ),
    },
    { label: 'Client', cell: (s) => clientLabel(s) },
    {
      label: 'Status',
      cell: (s) => (
        <Group gap={4}>
          <StatusBadge status={s.status} />
          <QuoteBadge status={s.quoteStatus} forLab />
          <CustodyBadge state={s.custody.state} />
        </Group>
      ),
    },
    { label: 'Assigned Staff', cell: (s) => personFullName(s.assignedStaff) || 'Unassigned' },
    { label: 'Submitted', cell: (s) => formatDate(s.submissionDate) },
    {
      label: 'Expected',
      cell: (s) => <ExpectedDate date={s.expectedCompletionDate} overdue={s.overdue} />,
    },
    {
      label: 'Actions',
      cell: (s) => (
        <Group gap="xs">
          {isAdmin ? <AssignControl sample={s} staff={staffOptions} /> : null}
          {canStart(s, userId) ? (
            <Button
              size="xs"
              onClick={() =>
                start.mutate(s.id, {
                  onSuccess: () => toast.success('Sample status updated'),
                  onError: (err) => toast.error('Error', `Failed to update sample status: ${reason(err)}`),
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
      ),
    },
  ];
  const filtered = isFiltered(view.filters);
  return (
    <Stack gap="md">
      <SampleFilters
        value={view.filters}
        onChange={setFilters}
        staff={isAdmin ? staffOptions : undefined}
        showCustody
        onExport={exportCsv}
        exporting={exporting}
      />
      <PagedTable
        maxRows={filtered ? MAX_PAGED_ROWS : undefined}
        query={samples}
        rowsOf={(data) => data.rows}
        loading="Loading samples..."
        failure={(why) => `Failed to load samples: ${why}`}
        columns={columns}
        idAttribute="data-sample-id"
        minWidth={isAdmin ? 1040 : 820}
        highlightOnHover
        empty={filtered ? 'No samples match this search.' : 'No samples found.'}
        page={view.page}
        onPage={setPage}
        pagerLabel="Samples pages"
      />
    </Stack>
  );
}
