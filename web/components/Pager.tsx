import { Button, Group, Text } from '@mantine/core';
import { ADMIN_PAGE_SIZE } from '../../common/contracts/workflow';

/** Previous disabled on page 1; Next disabled when the page has fewer rows than a full page (docs/product/limits.md). */
export function Pager({
  page,
  rows,
  total,
  label,
  onPage,
  pageSize = ADMIN_PAGE_SIZE,
  estimated = false,
  maxRows,
}: {
  page: number;
  rows: number;
  total: number | null;
  label: string;
  onPage: (page: number) => void;
  pageSize?: number;
  /** The total is the database's estimate (a search over more than 10,000 rows). */
  estimated?: boolean;
  /** Only this many rows can be paged (a searched or filtered list). */
  maxRows?: number;
}) {
  const reachable = total === null ? null : maxRows === undefined ? total : Math.min(total, maxRows);
  const pages = reachable === null ? null : Math.max(1, Math.ceil(reachable / pageSize));
  const atEnd = rows < pageSize || (maxRows !== undefined && page * pageSize >= maxRows);
  return (
    <Group justify="space-between" mt="sm" component="nav" aria-label={label}>
      <Text size="sm" c="gray.7">
        {pages === null ? `Page ${page}` : `Page ${page} of ${pages}`}
        {total !== null && maxRows !== undefined
          ? ` · ${estimated ? 'about ' : ''}${total.toLocaleString('en-US')} ${total === 1 ? 'match' : 'matches'}`
          : null}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="default" size="xs" disabled={atEnd} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </Group>
    </Group>
  );
}
