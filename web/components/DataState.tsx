import { Alert, Button, Group, Skeleton, Stack, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';

// Loading and error states shared by every data screen: placeholders shaped like the content while it
// loads (never zeros or an empty state that looks like lost data), and an error with a way out.

/** Grey bars where rows will be; screen readers hear `label` once. */
export function RowsSkeleton({
  label,
  rows = 3,
  height = 44,
}: {
  label: string;
  rows?: number;
  height?: number;
}) {
  return (
    <Stack gap="sm" aria-busy="true" data-loading="true">
      <VisuallyHidden role="status">{label}</VisuallyHidden>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="sm" />
      ))}
    </Stack>
  );
}

/** The error text (the screen's own words) and a Retry that runs the request again. */
export function LoadError({
  children,
  onRetry,
  retrying = false,
  title = 'Error',
  extra,
}: {
  children: ReactNode;
  onRetry: () => unknown;
  retrying?: boolean;
  title?: string;
  extra?: ReactNode;
}) {
  return (
    <Alert color="red" role="alert" title={title}>
      <Stack gap="sm" align="flex-start">
        <div>{children}</div>
        <Group gap="xs">
          <Button
            size="xs"
            variant="white"
            color="red"
            leftSection={<IconRefresh size={14} aria-hidden="true" />}
            loading={retrying}
            onClick={() => void onRetry()}
          >
            Retry
          </Button>
          {extra}
        </Group>
      </Stack>
    </Alert>
  );
}
