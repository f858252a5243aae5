import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconDashboard, IconHeadset, IconSparkles, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/StatusBadge';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { isUnauthorized, ownSamplesQuery } from '../api';
import { dashboardCounts, EmptySubmissions } from './CustomerDashboardPage';

/** Spec §9: the client home shows the first 3 submissions. */
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

export function ClientHome() {
  usePageTitle('Home');
  const { user, token, expire } = useSession();
  const query = useQuery(ownSamplesQuery(token));
  useEffect(() => {
    if (isUnauthorized(query.error)) expire();
  }, [query.error, expire]);
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
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="home-recent">
            <Group justify="space-between" mb="md">
              <Title order={2} size="h3" id="home-recent">
                Recent Submissions
              </Title>
              <Button component={Link} to="/dashboard" variant="subtle" size="compact-sm">
                View All
              </Button>
            </Group>
            {query.isPending ? (
              <Group>
                <Loader size="sm" aria-hidden="true" />
                <Text role="status">Loading submissions...</Text>
              </Group>
            ) : query.isError ? (
              <Text c="red.8" role="alert">
                Error fetching submissions: {query.error.message}
              </Text>
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
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="home-account">
            <Title order={2} size="h3" id="home-account" mb="md">
              Account Overview
            </Title>
            <Stack gap="xs" component="dl" m={0}>
              <Group justify="space-between">
                <Text component="dt">Total Submissions</Text>
                <Text component="dd" m={0} fw={700}>
                  {counts.total}
                </Text>
              </Group>
              <Group justify="space-between">
                <Text component="dt">Completed Reports</Text>
                <Text component="dd" m={0} fw={700}>
                  {counts.completed}
                </Text>
              </Group>
              <Group justify="space-between">
                <Text component="dt">In Progress</Text>
                <Text component="dd" m={0} fw={700}>
                  {counts.inProgress}
                </Text>
              </Group>
            </Stack>
            <Badge color="teal" variant="light" mt="md" styles={{ root: { textTransform: 'none' } }}>
              Account in good standing
            </Badge>
          </Card>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
