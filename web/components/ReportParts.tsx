import { SimpleGrid, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { IDENTIFICATION_FIELDS, type IdentificationField } from '../../common/domain/valuation';

// Parts of a valuation report shared by the owner's sample page and public verification
// (docs/product/valuation-report.md).

export const VERDICT_COLOR: Record<string, string> = {
  authentic: 'teal',
  'not-authentic': 'red',
  inconclusive: 'yellow',
};

type Identification = Partial<Record<IdentificationField, string | null>> | null | undefined;

/** The identification fields that are stated, in the report's order. */
export const statedFields = (id: Identification) => IDENTIFICATION_FIELDS.filter(({ field }) => id?.[field]);

/** The stated identification fields as a two-column definition list. */
export function IdentificationList({ identification }: { identification: Identification }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
      {statedFields(identification).map(({ field, label }) => (
        <div key={field}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
            {identification?.[field]}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** One titled part of a report as the owner and the reviewer read it (a heading and what it states). */
export function ReportPart({ title, order, children }: { title: string; order: 3 | 4; children: ReactNode }) {
  return (
    <div>
      <Title order={order} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </div>
  );
}
