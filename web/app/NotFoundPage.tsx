import { Button, Card, Container, Group, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <Container size="sm" py={80}>
      <Card withBorder padding="xl">
        <Group gap="sm" mb="sm">
          <IconAlertCircle size={32} color="var(--mantine-color-red-7)" aria-hidden="true" />
          <Title order={1} size="h2">
            404 Page Not Found
          </Title>
        </Group>
        <Text c="dimmed" mb="lg">
          Did you forget to add the page to the router?
        </Text>
        <Button component={Link} to="/">
          Go Home
        </Button>
      </Card>
    </Container>
  );
}
