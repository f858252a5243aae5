import { Card, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One counter of a dashboard: a label, its number ('–' while unknown) and an optional icon. */
export function StatCard({
  label,
  value,
  icon,
}: {
  label: string;
  value: number | undefined;
  icon?: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="sm" c="gray.7">
            {label}
          </Text>
          <Text fz={28} fw={700} lh={1.2}>
            {value ?? '–'}
          </Text>
        </div>
        {icon}
      </Group>
    </Card>
  );
}
