import { Container, Title } from '@mantine/core';

/** A screen whose issue has not landed yet: a plain heading, as the foundation issue allows. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>{title}</Title>
    </Container>
  );
}
