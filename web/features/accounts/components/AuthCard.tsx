import { Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame shared by /login and /register: a heading, the form, and the link to the other one. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead: string;
  children: ReactNode;
  footer?: { text: string; link: string; to: string };
}) {
  return (
    <Container size={460} py={{ base: 40, md: 72 }}>
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap={4} mb="lg">
          <Title order={1} size="h2" id="auth-title">
            {title}
          </Title>
          <Text c="dark.3">{lead}</Text>
        </Stack>
        {children}
        {footer && (
          <Text ta="center" size="sm" mt="lg">
            {footer.text}{' '}
            <Anchor component={Link} to={footer.to} fw={600}>
              {footer.link}
            </Anchor>
          </Text>
        )}
      </Paper>
    </Container>
  );
}
