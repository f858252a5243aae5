import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, ColorSwatch, Group, SimpleGrid, Text, Title, VisuallyHidden } from '@mantine/core';
import type { AdminAnalytics } from '../../../../common/contracts/workflow';
import { SAMPLE_STATUS_LABELS } from '../../../../common/domain/samples';
import { CHART_CARD_MIN_HEIGHT } from './chart-size';

// Loaded lazily by the admin dashboard only: the chart library is large (docs/decisions/0005-lab-workflow.md).

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
      <Card withBorder radius="md" padding="md" component="figure" m={0} mih={CHART_CARD_MIN_HEIGHT}>
        <Title order={2} size="h4" mb="sm">
          Submissions per week
        </Title>
        <BarChart
          h={220}
          data={weekly}
          dataKey="week"
          series={[{ name: 'Submissions', color: 'navy.6' }]}
          tickLine="y"
          yAxisProps={{ allowDecimals: false }}
          barChartProps={{ accessibilityLayer: false }}
          aria-hidden="true"
        />
        <VisuallyHidden component="figcaption">
          {`Submissions per week, last 12 weeks: ${weekly.map((w) => `${w.week}: ${w.Submissions}`).join(', ')}`}
        </VisuallyHidden>
      </Card>
      <Card withBorder radius="md" padding="md" component="figure" m={0} mih={CHART_CARD_MIN_HEIGHT}>
        <Title order={2} size="h4" mb="sm">
          Samples by status
        </Title>
        {byStatus.length === 0 ? (
          <Text c="gray.7">No samples yet.</Text>
        ) : (
          <DonutChart
            h={220}
            data={byStatus}
            withLabelsLine
            withLabels
            tooltipDataSource="segment"
            pieChartProps={{ accessibilityLayer: false }}
            pieProps={{ rootTabIndex: -1 }}
            aria-hidden="true"
            mx="auto"
          />
        )}
        <Group component="figcaption" gap="sm" justify="center" mt="xs" aria-label="Samples by status">
          {data.byStatus.map((s) => (
            <Group key={s.status} gap={6} wrap="nowrap">
              <ColorSwatch
                color={`var(--mantine-color-${STATUS_COLORS[s.status].replace('.', '-')})`}
                size={12}
              />
              <Text size="sm">{`${SAMPLE_STATUS_LABELS[s.status]}: ${s.count}`}</Text>
            </Group>
          ))}
        </Group>
      </Card>
    </SimpleGrid>
  );
}
