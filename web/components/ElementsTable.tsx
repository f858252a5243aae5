import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { ResponsiveTable } from './ResponsiveTable';

type Row = { element: string; percentage: number | null; purity: string | null; quality: string | null };

/** A column after Quality (the editor's notes and its Delete button). */
export type ExtraColumn<R> = { header: ReactNode; cell: (row: R) => ReactNode };

type Options<R extends Row> = {
  rows: readonly R[];
  /** The width below which the table scrolls sideways (or, with `cards`, becomes cards). */
  minWidth?: number;
  /** Striped rows, the element's name in bold. */
  striped?: boolean;
  /** A border around the table (the public verification page). */
  bordered?: boolean;
  /** Tighter rows (the editor). */
  compact?: boolean;
  /** Below 48em each row becomes a card, every cell named by its column (ResponsiveTable). */
  cards?: boolean;
  /** How a stated quality is drawn; plain text unless given. */
  renderQuality?: (quality: string) => ReactNode;
  extraColumns?: readonly ExtraColumn<R>[];
  /** A row's React key; the element's name unless given (names are unique in an issued report). */
  rowKey?: (row: R) => string | number;
};

/**
 * A report's element table as the lab's screens show it: element, percentage, purity, quality, with
 * 'N/A' for what is not stated. Every cell carries its column name (`data-label`) for the card layout.
 */
export function ElementsTable<R extends Row>({
  rows,
  minWidth = 480,
  striped = false,
  bordered = false,
  compact = false,
  cards = false,
  renderQuality,
  extraColumns = [],
  rowKey = (row) => row.element,
}: Options<R>) {
  const table = (
    <Table striped={striped} withTableBorder={bordered} verticalSpacing={compact ? 'xs' : undefined}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Element</Table.Th>
          <Table.Th>Percentage</Table.Th>
          <Table.Th>Purity</Table.Th>
          <Table.Th>Quality</Table.Th>
          {extraColumns.map((c, i) => (
            <Table.Th key={i}>{c.header}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((e) => (
          <Table.Tr key={rowKey(e)}>
            <Table.Td data-label="Element" fw={striped ? 600 : undefined}>
              {e.element}
            </Table.Td>
            <Table.Td data-label="Percentage">
              {e.percentage === null ? 'N/A' : `${e.percentage.toFixed(2)}%`}
            </Table.Td>
            <Table.Td data-label="Purity">{e.purity || 'N/A'}</Table.Td>
            <Table.Td data-label="Quality">
              {e.quality ? (renderQuality ? renderQuality(e.quality) : e.quality) : 'N/A'}
            </Table.Td>
            {extraColumns.map((c, i) => (
              <Table.Td key={i} data-label={typeof c.header === 'string' ? c.header : undefined}>
                {c.cell(e)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return cards ? (
    <ResponsiveTable minWidth={minWidth}>{table}</ResponsiveTable>
  ) : (
    <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>
  );
}
