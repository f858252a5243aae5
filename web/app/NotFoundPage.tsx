import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page Not Found', 'The page you are looking for does not exist.');
  return (
    <Container size="sm" py={{ base: 64, md: 112 }}>
      <Stack align="center" ta="center" gap="md">
        <Text fz={{ base: 72, sm: 104 }} fw={700} ff="heading" c="gold.8" lh={1} aria-hidden="true">
          404
        </Text>
        <Title order={1} fz={{ base: 28, sm: 36 }}>
          404 Page Not Found
        </Title>
        <Text c="dark.3">Did you forget to add the page to the router?</Text>
        <Group justify="center" mt="sm">
          <Button component={Link} to="/">
            Go Home
          </Button>
          <Button component={Link} to="/contact" variant="outline">
            Contact Us
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
