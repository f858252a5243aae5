import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  type MantineSpacing,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { awaitingReviewQuery } from '../lib/reviews';

const authorName = (a: { firstName: string | null; lastName: string | null } | null) =>
  a ? [a.firstName, a.lastName].filter(Boolean).join(' ') || 'a colleague' : 'a colleague';

/**
 * "Awaiting your review" (docs/product/valuation-report.md): reports colleagues issued that wait for a
 * second expert, each linked to its sample page where it is approved or sent back. Shows nothing
 * when the queue is empty, so a lab without the second review never sees it.
 */
export function AwaitingReviewCard({ mb }: { mb?: MantineSpacing } = {}) {
  const queue = useQuery(awaitingReviewQuery());
  if (queue.isPending)
    return (
      <Group role="status" aria-label="Loading reports awaiting review" mb={mb}>
        <Loader size="xs" />
      </Group>
    );
  if (queue.isError)
    return (
      <Alert color="red" role="alert" title="Error" mb={mb}>
        {errorMessage(queue.error, 'Failed to load the reports awaiting review')}
      </Alert>
    );
  if (!queue.data.length) return null;
  return (
    <Card withBorder radius="md" padding="lg" mb={mb} component="section" aria-labelledby="awaiting-review">
      <Group gap="xs" mb="sm">
        <Title order={2} size="h4" id="awaiting-review">
          Awaiting your review
        </Title>
        <Badge color="orange" variant="light">
          {queue.data.length}
        </Badge>
      </Group>
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {queue.data.map((r) => (
          <li key={`${r.sampleId}-${r.revision}`}>
            <Group gap="xs" wrap="wrap">
              <Anchor component={Link} to={`/sample/${r.sampleId}`} fw={600}>
                {r.displayId} · {r.itemName}
              </Anchor>
              <Text size="sm" c="dimmed">
                revision {r.revision}, issued by {authorName(r.author)} on {formatDateTime(r.submittedAt)}
              </Text>
            </Group>
          </li>
        ))}
      </Stack>
    </Card>
  );
}
