import {
  Anchor,
  Button,
  Card,
  Container,
  Group,
  NativeSelect,
  SimpleGrid,
  Space,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconFileTypePdf, IconReportAnalytics } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { AwaitingReviewCard } from '../../../components/AwaitingReviewCard';
import {
  clientLabel,
  displaySampleId,
  normalizeStatus,
  personFullName,
  SAMPLE_STATUS_LABELS,
  SAMPLE_STATUSES,
  STAFF_IN_PROGRESS_STATUSES,
  type SampleStatus,
} from '../../../../common/domain/samples';
import type { ReportDialogSlot, SendQuoteDialogSlot } from '../../../components/slots';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { StatCard } from '../../../components/StatCard';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { SampleThumbnail } from '../../../components/SampleThumbnail';
import { StatusBadge } from '../../../components/StatusBadge';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { ScanBox } from '../../../components/ScanBox';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useReportDownload } from '../../../lib/reports';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import {
  assigneesQuery,
  useChangeStatus,
  WORK_LIST_SCREEN_PAGE,
  workListCountsQuery,
  workListPageQuery,
} from '../api';
import { SampleFilters } from '../../../components/SampleFilters';
import { Pager } from '../../../components/Pager';
import { isFiltered, useListView } from '../../../lib/sample-filters';
import { MAX_PAGED_ROWS, type WorkListCounts } from '../../../../common/contracts/sample-search';
import { type PendingStatusChange, StatusChangeDialog } from './StatusChangeDialog';
import { ExpectedDate, QuoteBadge, SendQuoteAction } from '../../../components/Turnaround';

/**
 * The counters of the staff dashboard (docs/product/statuses.md), from the server's counts: the four
 * the product has always had, plus In Review and On Hold, so that the parts add up to Assigned.
 */
export function staffCounters(counts: WorkListCounts) {
  const count = (statuses: readonly SampleStatus[]) =>
    counts.byStatus.filter((s) => statuses.includes(s.status)).reduce((a, s) => a + s.count, 0);
  return {
    assigned: counts.total,
    pending: count(['submitted']),
    inProgress: count(STAFF_IN_PROGRESS_STATUSES),
    inReview: count(['review']),
    onHold: count(['on-hold']),
    completed: count(['completed']),
  };
}

/**
 * `reportDialog` is the reports feature's 'Generate Analysis Report' dialog and `quoteDialog` the quotes
 * feature's 'Send Quote' dialog, both passed in by the router.
 */
export function StaffDashboardPage({
  reportDialog: ReportDialog,
  quoteDialog,
}: { reportDialog?: ReportDialogSlot; quoteDialog?: SendQuoteDialogSlot } = {}) {
  usePageTitle('Staff Dashboard');
  const { user } = useSession();
  const downloadReport = useReportDownload();
  const { view, setFilters, setPage } = useListView();
  const samples = useQuery(workListPageQuery(view));
  const counts = useQuery(workListCountsQuery());
  const isAdmin = user?.role === 'admin';
  const assignees = useQuery({ ...assigneesQuery(), enabled: isAdmin });
  const assigneeOptions = (assignees.data ?? []).map((u) => ({
    value: String(u.id),
    label: personFullName(u) || u.email,
  }));
  const filtered = isFiltered(view.filters);
  const changeStatus = useChangeStatus();
  const [reportFor, setReportFor] = useState<number | null>(null);
  const [pending, setPending] = useState<PendingStatusChange | null>(null);

  const saveStatus = (note: string) => {
    if (!pending) return;
    changeStatus.mutate(
      { id: pending.id, status: pending.to, comment: note },
      {
        onSuccess: () => {
          setPending(null);
          toast.success('Sample status updated');
        },
        onError: () => toast.error('Error', 'Failed to update sample status'),
      },
    );
  };

  const list = samples.data?.rows ?? [];
  const counters = counts.data ? staffCounters(counts.data) : null;
  const shown = (n: number | undefined) => (counts.isError ? null : n);

  return (
    <Container size="xl" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Staff Dashboard</Title>
          <Text c="gray.7">Welcome, {user?.firstName ?? ''}</Text>
        </div>
        <ScanBox />
        {samples.isError ? (
          <LoadError onRetry={() => samples.refetch()} retrying={samples.isFetching}>
            {`Failed to fetch samples: ${errorMessage(samples.error, 'Failed to fetch samples')}`}
          </LoadError>
        ) : null}
        {counts.isError ? (
          <LoadError onRetry={() => counts.refetch()} retrying={counts.isFetching}>
            {`Failed to fetch the counters: ${errorMessage(counts.error, 'Failed to fetch the counters')}`}
          </LoadError>
        ) : null}
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
          <StatCard label="Assigned Samples" value={shown(counters?.assigned)} loading={counts.isPending} />
          <StatCard label="Pending" value={shown(counters?.pending)} loading={counts.isPending} />
          <StatCard label="In Progress" value={shown(counters?.inProgress)} loading={counts.isPending} />
          <StatCard label="In Review" value={shown(counters?.inReview)} loading={counts.isPending} />
          <StatCard label="On Hold" value={shown(counters?.onHold)} loading={counts.isPending} />
          <StatCard label="Completed" value={shown(counters?.completed)} loading={counts.isPending} />
        </SimpleGrid>
        <AwaitingReviewCard />
        <Card withBorder radius="md" padding="md">
          <Title order={2} size="h3" mb="sm">
            Assigned Samples
          </Title>
          <SampleFilters
            value={view.filters}
            onChange={setFilters}
            staff={isAdmin ? assigneeOptions : undefined}
            showCustody
          />
          <Space h="md" />
          {samples.isPending ? (
            <RowsSkeleton label="Loading staff dashboard..." rows={4} height={48} />
          ) : samples.isError ? (
            <Text c="gray.7">The work list could not be loaded. Use Retry above.</Text>
          ) : list.length === 0 ? (
            <Text c="gray.7">
              {filtered ? 'No samples match this search.' : 'No samples are assigned to you yet.'}
            </Text>
          ) : (
            <>
              <ResponsiveTable minWidth={820}>
                <Table striped highlightOnHover verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>ID</Table.Th>
                      <Table.Th>Item</Table.Th>
                      <Table.Th>Client</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Submitted</Table.Th>
                      <Table.Th>Expected</Table.Th>
                      <Table.Th>Actions</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((s) => {
                      const status = normalizeStatus(s.status);
                      const id = displaySampleId(s.id);
                      return (
                        <Table.Tr key={s.id} data-sample-id={s.id}>
                          <Table.Td data-label="ID" style={{ whiteSpace: 'nowrap' }}>
                            {id}
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
                              <CustodyBadge state={s.custody.state} />
                            </Group>
                          </Table.Td>
                          <Table.Td data-label="Submitted">{formatDate(s.submissionDate)}</Table.Td>
                          <Table.Td data-label="Expected">
                            <ExpectedDate date={s.expectedCompletionDate} overdue={s.overdue} />
                          </Table.Td>
                          <Table.Td data-label="Actions">
                            <Group gap="xs">
                              <NativeSelect
                                aria-label={`Status of ${id}`}
                                name="status"
                                size="xs"
                                value={status}
                                disabled={changeStatus.isPending && changeStatus.variables?.id === s.id}
                                onChange={(e) => {
                                  const to = e.currentTarget.value as SampleStatus;
                                  if (to !== status)
                                    setPending({
                                      id: s.id,
                                      displayId: id,
                                      itemName: s.itemName,
                                      from: status,
                                      to,
                                    });
                                }}
                                data={SAMPLE_STATUSES.map((v) => ({
                                  value: v,
                                  label: SAMPLE_STATUS_LABELS[v],
                                }))}
                              />
                              {status !== 'completed' ? (
                                <Button
                                  size="xs"
                                  variant="light"
                                  leftSection={<IconReportAnalytics size={14} aria-hidden="true" />}
                                  onClick={() => setReportFor(s.id)}
                                  aria-label={`Generate Report for ${id}`}
                                >
                                  Generate Report
                                </Button>
                              ) : null}
                              <SendQuoteAction sample={s} dialog={quoteDialog} />
                              {s.reportCode ? (
                                <Button
                                  size="xs"
                                  variant="outline"
                                  leftSection={<IconFileTypePdf size={14} aria-hidden="true" />}
                                  onClick={() => downloadReport(s.reportCode ?? '')}
                                  aria-label={`PDF of ${id}`}
                                >
                                  PDF
                                </Button>
                              ) : null}
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </ResponsiveTable>
              <Pager
                page={view.page}
                rows={list.length}
                total={samples.data?.total ?? null}
                estimated={samples.data?.estimated}
                maxRows={filtered ? MAX_PAGED_ROWS : undefined}
                pageSize={WORK_LIST_SCREEN_PAGE}
                label="Assigned samples pages"
                onPage={setPage}
              />
            </>
          )}
        </Card>
      </Stack>
      <StatusChangeDialog
        change={pending}
        saving={changeStatus.isPending}
        onConfirm={saveStatus}
        onCancel={() => setPending(null)}
      />
      {ReportDialog && reportFor !== null ? (
        <ReportDialog sampleId={reportFor} opened onClose={() => setReportFor(null)} />
      ) : null}
    </Container>
  );
}
