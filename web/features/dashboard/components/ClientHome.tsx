import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconDashboard, IconHeadset, IconSparkles, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { useOwnSamples } from '../api';
import { dashboardCounts, EmptySubmissions } from './CustomerDashboardPage';
import { DashboardSection } from './DashboardSection';

/** The client home shows the first 3 submissions. */
export const RECENT_ON_HOME = 3;

const QUICK_CARDS = [
  { title: 'Submit Item', text: 'Send a new item for valuation.', to: '/submit-sample', Icon: IconUpload },
  {
    title: 'View Dashboard',
    text: 'Track your submissions and reports.',
    to: '/dashboard',
    Icon: IconDashboard,
  },
  { title: 'Our Services', text: 'What our experts can do for you.', to: '/services', Icon: IconSparkles },
  { title: 'Support', text: 'Questions? We are here to help.', to: '/contact', Icon: IconHeadset },
];

/** A placeholder while loading, a dash after an error: never a misleading 0. */
function Count({ value, pending, failed }: { value: number; pending: boolean; failed: boolean }) {
  if (pending) return <Skeleton height={18} width={28} radius="sm" data-loading="true" />;
  return <>{failed ? '–' : value}</>;
}

export function ClientHome() {
  usePageTitle('Home');
  const { user } = useSession();
  const query = useOwnSamples();
  const samples = query.data ?? [];
  const counts = dashboardCounts(samples);

  return (
    <Container size="lg" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Title order={1} mb="lg">
        Welcome back, {user?.firstName || 'Valued Client'}!
      </Title>

      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" mb="xl">
        {QUICK_CARDS.map(({ title, text, to, Icon }) => (
          <UnstyledButton key={title} component={Link} to={to} className="quick-card">
            <Card withBorder radius="md" padding="lg" h="100%">
              <Icon size={28} aria-hidden="true" />
              <Text fw={700} mt="sm">
                {title}
              </Text>
              <Text size="sm" c="dimmed">
                {text}
              </Text>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <DashboardSection
            id="home-recent"
            title="Recent Submissions"
            action={
              <Button component={Link} to="/dashboard" variant="subtle" size="compact-sm">
                View All
              </Button>
            }
          >
            {query.isPending ? (
              <RowsSkeleton label="Loading submissions..." rows={3} height={40} />
            ) : query.isError ? (
              <LoadError onRetry={() => query.refetch()} retrying={query.isFetching}>
                Error fetching submissions: {query.error.message}
              </LoadError>
            ) : samples.length === 0 ? (
              <EmptySubmissions />
            ) : (
              <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {samples.slice(0, RECENT_ON_HOME).map((s) => (
                  <Group key={s.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text
                        fw={600}
                        component={Link}
                        to={`/sample/${s.id}`}
                        style={{ textDecoration: 'none', color: 'inherit' }}
                      >
                        {s.itemName}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {formatDate(s.submissionDate)}
                      </Text>
                    </div>
                    <Box style={{ flexShrink: 0 }}>
                      <StatusBadge status={s.status} />
                    </Box>
                  </Group>
                ))}
              </Stack>
            )}
          </DashboardSection>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <DashboardSection id="home-account" title="Account Overview">
            <Stack gap="xs" component="dl" m={0}>
              {(
                [
                  ['Total Submissions', counts.total],
                  ['Completed Reports', counts.completed],
                  ['In Progress', counts.inProgress],
                ] as const
              ).map(([label, value]) => (
                <Group key={label} justify="space-between">
                  <Text component="dt">{label}</Text>
                  <Text component="dd" m={0} fw={700}>
                    <Count value={value} pending={query.isPending} failed={query.isError} />
                  </Text>
                </Group>
              ))}
            </Stack>
            <Badge color="teal" variant="light" mt="md" styles={{ root: { textTransform: 'none' } }}>
              Account in good standing
            </Badge>
          </DashboardSection>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
