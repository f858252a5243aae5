import { Table } from '@mantine/core';

type Row = { element: string; percentage: number; purity: string | null; quality: string | null };

/** A report's element table as the lab's screens show it: element, percentage, purity, quality. */
export function ElementsTable({ rows, minWidth = 480 }: { rows: readonly Row[]; minWidth?: number }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table>
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
              <Table.Td>{e.element}</Table.Td>
              <Table.Td>{e.percentage.toFixed(2)}%</Table.Td>
              <Table.Td>{e.purity ?? 'N/A'}</Table.Td>
              <Table.Td>{e.quality ?? 'N/A'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
