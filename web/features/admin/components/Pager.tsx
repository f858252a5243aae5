import { Button, Group, Text } from '@mantine/core';
import { ADMIN_PAGE_SIZE } from '../../../../common/contracts/workflow';

/** Previous disabled on page 1; Next disabled when the page has fewer rows than a full page (docs/product/limits.md). */
export function Pager({
  page,
  rows,
  total,
  label,
  onPage,
  pageSize = ADMIN_PAGE_SIZE,
}: {
  page: number;
  rows: number;
  total: number | null;
  label: string;
  onPage: (page: number) => void;
  pageSize?: number;
}) {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" mt="sm" component="nav" aria-label={label}>
      <Text size="sm" c="gray.7">
        {pages === null ? `Page ${page}` : `Page ${page} of ${pages}`}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="default" size="xs" disabled={rows < pageSize} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </Group>
    </Group>
  );
}
