import { Card, Group, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One counter of a dashboard: a label, its number and an optional icon. While `loading` a grey
 * placeholder stands where the number will be (never a misleading 0); '–' when it is unknown, e.g.
 * after an error.
 */
export function StatCard({
  label,
  value,
  icon,
  loading = false,
}: {
  label: string;
  value: number | null | undefined;
  icon?: ReactNode;
  loading?: boolean;
}) {
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text size="sm" c="gray.7">
            {label}
          </Text>
          {loading ? (
            <Skeleton height={30} width={48} mt={6} radius="sm" data-loading="true" />
          ) : (
            <Text fz={28} fw={700} lh={1.2}>
              {value ?? '–'}
            </Text>
          )}
        </div>
        {icon}
      </Group>
    </Card>
  );
}
