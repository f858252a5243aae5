import { Badge, Button, Group, Text } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { QUOTE_STATUS_LABELS, type QuoteStatus } from '../../common/domain/quotes';
import { displaySampleId, normalizeStatus } from '../../common/domain/samples';
import { formatDay } from '../lib/format';
import { WHOLE_LABEL_BADGE } from './badge-styles';
import type { SendQuoteDialogSlot } from './slots';

// The expected completion date with its "Late" flag, and the quote's state, as every list shows
// them (docs/product/quotes.md).

export function ExpectedDate({ date, overdue }: { date: string; overdue: boolean }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDay(date)}
      </Text>
      {overdue && (
        <Badge color="red" variant="filled" size="sm" styles={WHOLE_LABEL_BADGE}>
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
    <Badge color={COLORS[status]} variant="light" size="sm" styles={WHOLE_LABEL_BADGE}>
      {label}
    </Badge>
  );
}

/**
 * 'Send Quote' (or 'Replace Quote' while one awaits the answer) in a lab list's row, opening the
 * quotes feature's dialog passed in by the router; nothing once a quote is accepted or the sample is
 * completed.
 */
export function SendQuoteAction({
  sample,
  dialog: Dialog,
}: {
  sample: { id: number; status: string; quoteStatus: QuoteStatus | null };
  dialog?: SendQuoteDialogSlot;
}) {
  const [open, setOpen] = useState(false);
  // A completed sample has nothing left to price (the server refuses it too).
  if (!Dialog || sample.quoteStatus === 'accepted' || normalizeStatus(sample.status) === 'completed')
    return null;
  const label = sample.quoteStatus === 'sent' ? 'Replace Quote' : 'Send Quote';
  return (
    <>
      <Button
        size="xs"
        variant="light"
        leftSection={<IconReceipt size={14} aria-hidden="true" />}
        onClick={() => setOpen(true)}
        aria-label={`${label} for ${displaySampleId(sample.id)}`}
      >
        {label}
      </Button>
      {open && <Dialog sampleId={sample.id} onClose={() => setOpen(false)} />}
    </>
  );
}
