import { Badge, Stack, Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { CSSProperties, ReactNode } from 'react';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { reason } from './messages';
import { Pager } from '../../../components/Pager';

export type Column<Row> = {
  /** The header, and the cell's `data-label` (shown beside the value when rows become cards). */
  label: string;
  cell: (row: Row) => ReactNode;
  style?: CSSProperties;
};

export const NO_WRAP: CSSProperties = { whiteSpace: 'nowrap' };

/**
 * One page of an admin list (samples, inquiries, outbox): a skeleton while it loads, the error with
 * Retry, then what goes above the list, the empty text or the table (cards on a phone), the pager
 * and what goes below. Each row carries its id in `idAttribute` (`data-sample-id`…).
 */
export function PagedTable<
  Data extends { total: number | null; estimated?: boolean },
  Row extends { id: number },
>({
  query,
  rowsOf,
  loading,
  failure,
  columns,
  idAttribute,
  minWidth,
  highlightOnHover = false,
  empty,
  page,
  onPage,
  pagerLabel,
  pageSize,
  above,
  below,
  maxRows,
}: {
  query: UseQueryResult<Data>;
  rowsOf: (data: Data) => Row[];
  /** What the skeleton announces. */
  loading: string;
  /** The error's text, given the reason. */
  failure: (why: string) => string;
  columns: Column<Row>[];
  idAttribute: `data-${string}-id`;
  minWidth: number;
  highlightOnHover?: boolean;
  empty: string;
  page: number;
  onPage: (page: number) => void;
  pagerLabel: string;
  /** Rows per page, when not the admin lists' default. */
  pageSize?: number;
  above?: (data: Data) => ReactNode;
  below?: ReactNode;
  /** A searched list pages through this many rows at most. */
  maxRows?: number;
}) {
  if (query.isPending) return <RowsSkeleton label={loading} rows={5} />;
  if (query.isError)
    return (
      <LoadError onRetry={() => query.refetch()} retrying={query.isFetching}>
        {failure(reason(query.error))}
      </LoadError>
    );
  const rows = rowsOf(query.data);
  return (
    <Stack gap="sm">
      {above?.(query.data)}
      {rows.length === 0 ? (
        <Text c="gray.7">{empty}</Text>
      ) : (
        <ResponsiveTable minWidth={minWidth}>
          <Table striped highlightOnHover={highlightOnHover} verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.label}>{c.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id} {...{ [idAttribute]: row.id }}>
                  {columns.map((c) => (
                    <Table.Td key={c.label} data-label={c.label} style={c.style}>
                      {c.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ResponsiveTable>
      )}
      <Pager
        page={page}
        rows={rows.length}
        total={query.data.total}
        estimated={query.data.estimated}
        maxRows={maxRows}
        label={pagerLabel}
        onPage={onPage}
        pageSize={pageSize}
      />
      {below}
    </Stack>
  );
}

/** A state in a list (a mail's, an inquiry's), capitalised, its whole word always shown. */
export function StateBadge({ color, children }: { color: string; children: string }) {
  return (
    <Badge
      color={color}
      variant="light"
      tt="capitalize"
      styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {children}
    </Badge>
  );
}
