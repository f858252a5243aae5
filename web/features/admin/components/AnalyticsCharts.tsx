import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, SimpleGrid, Text, Title, VisuallyHidden } from '@mantine/core';
import type { AdminAnalytics } from '../../../../common/contracts/workflow';
import { SAMPLE_STATUS_LABELS } from '../../../../common/domain/samples';

// Loaded lazily by the admin dashboard only: the chart library is large (STACK.md).

const STATUS_COLORS = {
  submitted: 'gray.6',
  'in-progress': 'blue.6',
  analysis: 'violet.6',
  review: 'yellow.6',
  completed: 'teal.6',
  'on-hold': 'red.6',
} as const;

const weekLabel = (isoDay: string) =>
  new Date(`${isoDay}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** Submissions per week (last 12 weeks) and samples by status, with a text equivalent for each. */
export function AnalyticsCharts({ data }: { data: AdminAnalytics }) {
  const weekly = data.weekly.map((w) => ({ week: weekLabel(w.weekStart), Submissions: w.count }));
  const byStatus = data.byStatus
    .filter((s) => s.count > 0)
    .map((s) => ({ name: SAMPLE_STATUS_LABELS[s.status], value: s.count, color: STATUS_COLORS[s.status] }));
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder radius="md" padding="md" component="figure" m={0}>
        <Title order={2} size="h4" mb="sm">
          Submissions per week
        </Title>
        <BarChart
          h={220}
          data={weekly}
          dataKey="week"
          series={[{ name: 'Submissions', color: 'navy.6' }]}
          tickLine="y"
          aria-hidden="true"
        />
        <VisuallyHidden component="figcaption">
          {`Submissions per week, last 12 weeks: ${weekly.map((w) => `${w.week}: ${w.Submissions}`).join(', ')}`}
        </VisuallyHidden>
      </Card>
      <Card withBorder radius="md" padding="md" component="figure" m={0}>
        <Title order={2} size="h4" mb="sm">
          Samples by status
        </Title>
        {byStatus.length === 0 ? (
          <Text c="dimmed">No samples yet.</Text>
        ) : (
          <DonutChart
            h={220}
            data={byStatus}
            withLabelsLine
            withLabels
            tooltipDataSource="segment"
            aria-hidden="true"
            mx="auto"
          />
        )}
        <VisuallyHidden component="figcaption">
          {`Samples by status: ${data.byStatus.map((s) => `${SAMPLE_STATUS_LABELS[s.status]}: ${s.count}`).join(', ')}`}
        </VisuallyHidden>
      </Card>
    </SimpleGrid>
  );
}
