import { Alert, Button, Container, Group, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactElement, ReactNode } from 'react';
import { HttpError } from '../lib/api';

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

/**
 * What a page showing one record by its id renders before the record is there: "not found" for an id
 * that is not a number or that the server refuses or does not know (400, 403 and 404 read the same, so
 * the page never tells whether someone else's record exists), grey rows while it loads, and the error
 * with Retry. Answers the record once it has loaded.
 */
export function detailPageState<T>(
  query: UseQueryResult<T>,
  page: {
    validId: boolean;
    /** "Sample Not Found": the heading of the not-found state. */
    notFoundTitle: string;
    notFoundText: string;
    /** The way back, under the not-found text. */
    back: ReactNode;
    loadingLabel: string;
    rowHeight: number;
    errorText: ReactNode;
    errorExtra?: ReactNode;
  },
): { view: ReactElement } | { data: T } {
  const refused = query.error instanceof HttpError && [400, 403, 404].includes(query.error.status);
  if (!page.validId || refused)
    return {
      view: (
        <Container size="sm" py="xl">
          <Stack align="flex-start">
            <Title order={1}>{page.notFoundTitle}</Title>
            <Text>{page.notFoundText}</Text>
            {page.back}
          </Stack>
        </Container>
      ),
    };
  if (query.isPending)
    return {
      view: (
        <Container size="lg" py="xl">
          <Skeleton height={36} width="60%" mb="sm" />
          <RowsSkeleton label={page.loadingLabel} rows={4} height={page.rowHeight} />
        </Container>
      ),
    };
  if (query.isError)
    return {
      view: (
        <Container size="lg" py="xl">
          <LoadError onRetry={() => query.refetch()} retrying={query.isFetching} extra={page.errorExtra}>
            {page.errorText}
          </LoadError>
        </Container>
      ),
    };
  return { data: query.data };
}
