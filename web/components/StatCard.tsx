import { Card, Group, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The number's font size and line height: the placeholder takes exactly its line, so nothing moves when it arrives. */
const VALUE_SIZE = 28;
const VALUE_LINE_HEIGHT = 1.2;

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
            <Skeleton height={VALUE_SIZE * VALUE_LINE_HEIGHT} width={48} radius="sm" data-loading="true" />
          ) : (
            <Text fz={VALUE_SIZE} fw={700} lh={VALUE_LINE_HEIGHT}>
              {value ?? '–'}
            </Text>
          )}
        </div>
        {icon}
      </Group>
    </Card>
  );
}
