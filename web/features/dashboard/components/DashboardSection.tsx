import { Card, type CardProps, Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card of the customer's home and dashboard, named by its heading; `action` sits beside the heading. */
export function DashboardSection({
  id,
  title,
  action,
  children,
  ...card
}: CardProps & { id: string; title: string; action?: ReactNode; children: ReactNode }) {
  const heading = (
    <Title order={2} size="h3" id={id} mb={action ? undefined : 'md'}>
      {title}
    </Title>
  );
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id} {...card}>
      {action ? (
        <Group justify="space-between" mb="md">
          {heading}
          {action}
        </Group>
      ) : (
        heading
      )}
      {children}
    </Card>
  );
}
