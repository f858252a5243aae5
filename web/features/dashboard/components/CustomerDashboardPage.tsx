import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Grid,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconCalendarEvent,
  IconCircleCheck,
  IconClockHour4,
  IconDownload,
  IconEye,
  IconHeadset,
  IconInbox,
  IconPlus,
  IconStack2,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { OwnSampleListItem } from '../../../../common/contracts/samples';
import {
  displaySampleId,
  IN_PROGRESS_STATUSES,
  normalizeStatus,
  SAMPLE_STATUS_LABELS,
  SAMPLE_STATUSES,
  servicesText,
} from '../../../../common/domain/samples';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import type { CollectionsSectionSlot } from '../../../components/slots';
import { SampleThumbnail } from '../../../components/SampleThumbnail';
import { StatCard } from '../../../components/StatCard';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { StatusBadge } from '../../../components/StatusBadge';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { formatDate } from '../../../lib/format';
import { useReportDownload } from '../../../lib/reports';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOwnSamples } from '../api';
import { DashboardSection } from './DashboardSection';
import { SubmissionProgress } from './SubmissionProgress';
import { ExpectedDate, QuoteBadge } from '../../../components/Turnaround';

const QUICK_ACTIONS = [
  { label: 'Submit New Item', to: '/submit-sample', Icon: IconPlus, variant: undefined },
  {
    label: 'Schedule Consultation',
    to: '/contact?subject=consultation-request',
    Icon: IconCalendarEvent,
    variant: 'default',
  },
  { label: 'Contact Support', to: '/contact', Icon: IconHeadset, variant: 'default' },
] as const;

export function dashboardCounts(
  samples: Pick<OwnSampleListItem, 'status' | 'submissionDate'>[],
  now = new Date(),
) {
  const thisMonth = (d: string) => {
    const date = new Date(d);
    return date.getFullYear() === now.getFullYear() && date.getMonth() === now.getMonth();
  };
  return {
    total: samples.length,
    inProgress: samples.filter((s) => IN_PROGRESS_STATUSES.includes(normalizeStatus(s.status))).length,
    completed: samples.filter((s) => normalizeStatus(s.status) === 'completed').length,
    thisMonth: samples.filter((s) => thisMonth(s.submissionDate)).length,
  };
}

export function EmptySubmissions() {
  return (
    <Stack align="center" py="xl" gap="sm">
      <IconInbox size={40} aria-hidden="true" />
      <Text fw={600}>No submissions yet</Text>
      <Button component={Link} to="/submit-sample">
        Submit Your First Item
      </Button>
    </Stack>
  );
}

/** Above this many samples the customer's list gets a search box and a status filter. */
export const CUSTOMER_SEARCH_THRESHOLD = 10;

/** The customer's own samples whose item, VAL id or report code contains the text (any case, accents ignored), in a status. */
export function filterOwnSamples<
  T extends { id: number; itemName: string; reportCode: string | null; status: string },
>(list: T[], text: string, status: string): T[] {
  const fold = (v: string) =>
    v
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const words = fold(text).split(/\s+/).filter(Boolean);
  return list.filter((s) => {
    if (status && normalizeStatus(s.status) !== status) return false;
    const hay = fold(`${displaySampleId(s.id)} ${s.id} ${s.itemName} ${s.reportCode ?? ''}`);
    return words.every((w) => hay.includes(w));
  });
}

export function CustomerDashboardPage({
  collectionsSection: CollectionsSection,
}: { collectionsSection?: CollectionsSectionSlot } = {}) {
  usePageTitle('My Dashboard', 'Your submissions, their progress and reports.');
  const downloadReport = useReportDownload();
  const query = useOwnSamples();

  const all = query.data ?? [];
  const counts = dashboardCounts(all);
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const statusFilter = params.get('status') ?? '';
  // The box keeps its own text: the router applies URL changes in a transition, and a box fed from
  // the URL alone would drop keys typed before the previous one arrived.
  const [text, setText] = useState(search);
  const typed = useRef(new Set<string>());
  // The URL changed from elsewhere (a link), not from the box's own keys arriving late: the box shows it.
  useEffect(() => {
    if (typed.current.has(search)) return;
    typed.current.clear();
    setText(search);
  }, [search]);
  const setParam = (key: 'q' | 'status', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key === 'q' },
    );
  // Past ten samples (estates, dealers) the list gets a search box and a status filter, applied to
  // the customer's own list in the browser (docs/decisions/0025-search.md).
  const searchable = all.length > CUSTOMER_SEARCH_THRESHOLD;
  const samples = searchable ? filterOwnSamples(all, text, statusFilter) : all;
  // undefined while loading (a placeholder), null after an error (a dash): never a misleading 0.

  return (
    <Container size="lg" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" mb="lg">
        <Title order={1}>My Dashboard</Title>
        <Button component={Link} to="/submit-sample" leftSection={<IconPlus size={16} aria-hidden="true" />}>
          New Submission
        </Button>
      </Group>

      {query.isError && (
        <Box mb="lg">
          <LoadError onRetry={() => query.refetch()} retrying={query.isFetching}>
            Error fetching submissions: {query.error.message}
          </LoadError>
        </Box>
      )}

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" mb="lg">
        {(
          [
            ['Total Submissions', counts.total, IconStack2],
            ['In Progress', counts.inProgress, IconClockHour4],
            ['Completed', counts.completed, IconCircleCheck],
            ['This Month', counts.thisMonth, IconCalendarEvent],
          ] as const
        ).map(([label, value, Icon]) => (
          <StatCard
            key={label}
            label={label}
            value={query.isError ? null : value}
            loading={query.isPending}
            icon={<Icon size={28} aria-hidden="true" />}
          />
        ))}
      </SimpleGrid>

      <DashboardSection id="recent-title" title="Recent Submissions" mb="lg">
        {searchable ? (
          <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
            <TextInput
              label="Search"
              name="q"
              type="search"
              placeholder="Item, VAL id or report code"
              value={text}
              onChange={(e) => {
                typed.current.add(e.currentTarget.value);
                setText(e.currentTarget.value);
                setParam('q', e.currentTarget.value);
              }}
              style={{ flex: '1 1 14rem' }}
            />
            <NativeSelect
              label="Status"
              name="status"
              value={statusFilter}
              onChange={(e) => setParam('status', e.currentTarget.value)}
              data={[
                { value: '', label: 'All statuses' },
                ...SAMPLE_STATUSES.map((v) => ({ value: v, label: SAMPLE_STATUS_LABELS[v] })),
              ]}
            />
          </Group>
        ) : null}
        {query.isPending ? (
          <RowsSkeleton label="Loading submissions..." rows={3} height={52} />
        ) : query.isError ? (
          <Text c="dimmed">Your submissions could not be loaded. Use Retry above.</Text>
        ) : all.length === 0 ? (
          <EmptySubmissions />
        ) : samples.length === 0 ? (
          <Text c="dimmed">No submissions match this search.</Text>
        ) : (
          <ResponsiveTable minWidth={720}>
            <Table verticalSpacing="sm" striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Submission Date</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Expected Completion</Table.Th>
                  <Table.Th>Services</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {samples.map((s) => (
                  <Table.Tr key={s.id} data-sample-id={s.id}>
                    <Table.Td data-label="Item">
                      <Group gap="sm" wrap="nowrap">
                        <SampleThumbnail sample={s} size={48} />
                        <div>
                          <Text fw={600}>{s.itemName}</Text>
                          <Text size="xs" c="dimmed" ff="monospace">
                            {displaySampleId(s.id)}
                          </Text>
                        </div>
                      </Group>
                    </Table.Td>
                    <Table.Td data-label="Submission Date">{formatDate(s.submissionDate)}</Table.Td>
                    <Table.Td data-label="Status" miw={130} style={{ whiteSpace: 'nowrap' }}>
                      <Stack gap={4} align="flex-start">
                        <StatusBadge status={s.status} />
                        <CustodyBadge state={s.custody.state} />
                        {s.quoteStatus === 'sent' && <QuoteBadge status="sent" />}
                        {s.revaluationDue && (
                          <Badge color="orange" variant="light">
                            re-valuation due
                          </Badge>
                        )}
                      </Stack>
                    </Table.Td>
                    <Table.Td data-label="Expected Completion">
                      <ExpectedDate date={s.expectedCompletionDate} overdue={s.overdue} />
                    </Table.Td>
                    <Table.Td data-label="Services">{servicesText(s)}</Table.Td>
                    <Table.Td data-label="Actions">
                      <Group gap="xs">
                        <Button
                          component={Link}
                          to={`/sample/${s.id}`}
                          size="xs"
                          variant="light"
                          leftSection={<IconEye size={14} aria-hidden="true" />}
                          aria-label={`View ${s.itemName}`}
                        >
                          View
                        </Button>
                        {normalizeStatus(s.status) === 'completed' && s.reportCode && (
                          <Button
                            size="xs"
                            variant="outline"
                            leftSection={<IconDownload size={14} aria-hidden="true" />}
                            aria-label={`PDF report for ${s.itemName}`}
                            onClick={() => downloadReport(s.reportCode as string)}
                          >
                            PDF
                          </Button>
                        )}
                        {s.revaluationDue && (
                          <Button
                            component={Link}
                            to={`/submit-sample?revalue=${s.id}`}
                            size="xs"
                            color="orange"
                            aria-label={`Request re-valuation of ${s.itemName}`}
                            // Two lines in the narrow card of a phone rather than a clipped label.
                            h="auto"
                            py={4}
                            maw="100%"
                            styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
                          >
                            Request re-valuation
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ResponsiveTable>
        )}
      </DashboardSection>

      {CollectionsSection && <CollectionsSection />}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <DashboardSection id="progress-title" title="Submission Progress">
            {query.isPending ? (
              <RowsSkeleton label="Loading progress..." rows={2} height={40} />
            ) : query.isError ? (
              <Text c="dimmed">Progress shows once your submissions load.</Text>
            ) : samples.length === 0 ? (
              <Text c="dimmed">Your submissions will appear here with their progress.</Text>
            ) : (
              <Stack gap="md">
                {samples.map((s) => (
                  <div key={s.id}>
                    <Group gap="xs" mb={6}>
                      <Anchor component={Link} to={`/sample/${s.id}`} fw={600}>
                        {s.itemName}
                      </Anchor>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {displaySampleId(s.id)}
                      </Text>
                    </Group>
                    <SubmissionProgress status={s.status} />
                  </div>
                ))}
              </Stack>
            )}
          </DashboardSection>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <DashboardSection id="quick-title" title="Quick Actions">
            <Stack gap="sm">
              {QUICK_ACTIONS.map(({ label, to, Icon, variant }) => (
                <Button
                  key={label}
                  component={Link}
                  to={to}
                  variant={variant}
                  leftSection={<Icon size={16} aria-hidden="true" />}
                >
                  {label}
                </Button>
              ))}
            </Stack>
          </DashboardSection>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
