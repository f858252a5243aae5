import { Badge, Group, Text } from '@mantine/core';
import { QUOTE_STATUS_LABELS, type QuoteStatus } from '../../common/domain/quotes';
import { formatDay } from '../lib/format';

// The expected completion date with its "Late" flag, and the quote's state, as every list shows
// them (docs/product/quotes.md).

export function ExpectedDate({ date, overdue }: { date: string; overdue: boolean }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDay(date)}
      </Text>
      {overdue && (
        <Badge color="red" variant="filled" size="sm">
          Late
        </Badge>
      )}
    </Group>
  );
}

const COLORS: Record<QuoteStatus, string> = {
  sent: 'blue',
  accepted: 'green',
  declined: 'red',
  expired: 'gray',
  withdrawn: 'gray',
};

/** For the lab the waiting state reads "Quote sent"; for the customer "Quote awaiting your answer". */
export function QuoteBadge({ status, forLab }: { status: QuoteStatus | null; forLab?: boolean }) {
  if (!status) return null;
  const label = forLab && status === 'sent' ? 'Quote sent' : QUOTE_STATUS_LABELS[status];
  return (
    <Badge color={COLORS[status]} variant="light" size="sm" style={{ textTransform: 'none' }}>
      {label}
    </Badge>
  );
}
