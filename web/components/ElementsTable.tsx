import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { ResponsiveTable } from './ResponsiveTable';

type Row = { element: string; percentage: number | null; purity: string | null; quality: string | null };

type Options = {
  rows: readonly Row[];
  /** The width below which the table scrolls sideways (or, with `cards`, becomes cards). */
  minWidth?: number;
  /** Striped rows in a bordered table, the element's name in bold: the public verification look. */
  striped?: boolean;
  /** Below 48em each row becomes a card, every cell named by its column (ResponsiveTable). */
  cards?: boolean;
  /** How a stated quality is drawn; plain text unless given. */
  renderQuality?: (quality: string) => ReactNode;
};

/**
 * A report's element table as the lab's screens show it: element, percentage, purity, quality, with
 * 'N/A' for what is not stated. Every cell carries its column name (`data-label`) for the card layout.
 */
export function ElementsTable({
  rows,
  minWidth = 480,
  striped = false,
  cards = false,
  renderQuality,
}: Options) {
  const table = (
    <Table striped={striped} withTableBorder={striped}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Element</Table.Th>
          <Table.Th>Percentage</Table.Th>
          <Table.Th>Purity</Table.Th>
          <Table.Th>Quality</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((e) => (
          <Table.Tr key={e.element}>
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
