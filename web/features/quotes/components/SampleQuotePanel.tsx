import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { Quote } from '../../../../common/contracts/quotes';
import type { SampleDetail } from '../../../../common/contracts/samples';
import { formatMoney } from '../../../../common/domain/money';
import { QUOTE_STATUS_LABELS } from '../../../../common/domain/quotes';
import { isLabRole } from '../../../../common/domain/roles';
import { normalizeStatus } from '../../../../common/domain/samples';
import { errorMessage } from '../../../lib/api';
import { formatDateTime, formatDay } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { downloadInvoice, useAcceptQuote, useDeclineQuote, useMarkPaid, useWithdrawQuote } from '../api';
import { SendQuoteDialog } from './SendQuoteDialog';

// The sample page's quote card (docs/product/quotes.md): expected completion date, the quote with
// the customer's Accept/Decline, the lab's Send/Withdraw, and the invoice with its paid state.

const STATUS_COLORS: Record<Quote['status'], string> = {
  sent: 'blue',
  accepted: 'green',
  declined: 'red',
  expired: 'gray',
  withdrawn: 'gray',
};

function QuoteLines({ quote }: { quote: Quote }) {
  return (
    <Table striped withTableBorder aria-label="Quote lines">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Description</Table.Th>
          <Table.Th ta="right">Amount</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {quote.lines.map((l, i) => (
          <Table.Tr key={i}>
            <Table.Td>{l.description}</Table.Td>
            <Table.Td ta="right">{formatMoney(l.amountMinor, quote.currency)}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={700}>Total</Table.Td>
          <Table.Td ta="right" fw={700}>
            {formatMoney(quote.totalMinor, quote.currency)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

// Each answer names the quote on screen: the server refuses it (409) if the lab has changed it since.
function CustomerAnswer({ sampleId, quoteId }: { sampleId: number; quoteId: number }) {
  const accept = useAcceptQuote(sampleId);
  const decline = useDeclineQuote(sampleId);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const fail = (title: string) => (err: unknown) =>
    toast.error(title, errorMessage(err, 'Please try again.'));
  return (
    <Stack gap="xs">
      <Group>
        <Button
          color="green"
          loading={accept.isPending}
          onClick={() =>
            accept.mutate(
              { quoteId },
              {
                onSuccess: () =>
                  toast.success('Quote accepted', 'The lab starts work; see the expected date.'),
                onError: fail('Could not accept the quote'),
              },
            )
          }
        >
          Accept Quote
        </Button>
        {!declining && (
          <Button variant="outline" color="red" onClick={() => setDeclining(true)}>
            Decline
          </Button>
        )}
      </Group>
      {declining && (
        <Stack gap="xs">
          <Textarea
            id="decline-reason"
            label="Reason (optional)"
            maxLength={1000}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Group>
            <Button
              color="red"
              loading={decline.isPending}
              onClick={() =>
                decline.mutate(
                  { quoteId, reason: reason || null },
                  {
                    onSuccess: () => toast.success('Quote declined'),
                    onError: fail('Could not decline the quote'),
                  },
                )
              }
            >
              Decline Quote
            </Button>
            <Button variant="subtle" onClick={() => setDeclining(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

function Invoice({ sample, quote, isAdmin }: { sample: SampleDetail; quote: Quote; isAdmin: boolean }) {
  const markPaid = useMarkPaid(sample.id);
  const [reference, setReference] = useState('');
  const invoice = quote.invoice;
  if (!invoice) return null;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Text fw={600}>Invoice {invoice.number}</Text>
        <Badge color={invoice.paid ? 'green' : 'yellow'} variant="light">
          {invoice.paid ? 'Paid' : 'Payment due'}
        </Badge>
        <Button
          size="xs"
          variant="light"
          onClick={() =>
            downloadInvoice(sample.id, invoice.number).catch((err: unknown) =>
              toast.error('Failed to download invoice', errorMessage(err, 'Please try again.')),
            )
          }
        >
          Download Invoice
        </Button>
      </Group>
      {invoice.paid ? (
        <Text size="sm" c="gray.7">
          Paid on {formatDateTime(invoice.paidAt)} (reference {invoice.paidReference})
        </Text>
      ) : (
        <Text size="sm" c="gray.7">
          Payment reference: {invoice.number}
        </Text>
      )}
      {isAdmin && !invoice.paid && (
        <Group align="flex-end">
          <TextInput
            id="paid-reference"
            label="Payment reference received"
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
          />
          <Button
            loading={markPaid.isPending}
            disabled={!reference.trim()}
            onClick={() =>
              markPaid.mutate(reference, {
                onSuccess: () => toast.success('Invoice marked paid'),
                onError: (err) =>
                  toast.error('Could not mark it paid', errorMessage(err, 'Please try again.')),
              })
            }
          >
            Mark Paid
          </Button>
        </Group>
      )}
    </Stack>
  );
}

export function SampleQuotePanel({ sample }: { sample: SampleDetail }) {
  const { user } = useSession();
  const [sending, setSending] = useState(false);
  const withdraw = useWithdrawQuote(sample.id);
  const lab = isLabRole(user?.role);
  const isAdmin = user?.role === 'admin';
  const canPrice =
    (isAdmin || (lab && sample.assignedStaffId === user?.id)) &&
    normalizeStatus(sample.status) !== 'completed';
  const isOwner = user?.id === sample.userId;
  const quote = sample.quote;
  return (
    <Card withBorder radius="md" p="lg" mb="lg" component="section" aria-labelledby="quote-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id="quote-title">
            Quote and Turnaround
          </Title>
          {quote && (
            <Badge color={STATUS_COLORS[quote.status]} variant="light" size="lg">
              {QUOTE_STATUS_LABELS[quote.status]}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Text fw={600}>Expected completion:</Text>
          <Text data-testid="expected-date">{formatDay(sample.expectedCompletionDate)}</Text>
          {sample.overdue && (
            <Badge color="red" variant="filled">
              Late
            </Badge>
          )}
        </Group>
        {!quote && <Text c="gray.7">No quote has been sent for this sample yet.</Text>}
        {quote && (
          <>
            <QuoteLines quote={quote} />
            <Text size="sm" c="gray.7">
              Valid until {formatDay(quote.validUntil)}
              {quote.answeredAt ? ` · answered ${formatDateTime(quote.answeredAt)}` : ''}
            </Text>
            {quote.note && <Text size="sm">Note from the lab: {quote.note}</Text>}
            {quote.declineReason && <Text size="sm">Reason given: {quote.declineReason}</Text>}
            {quote.status === 'sent' && isOwner && (
              <Alert color="blue" title="Quote awaiting your answer">
                <Text size="sm" mb="sm">
                  Work starts when you accept; the expected completion date is then counted from that day.
                </Text>
                <CustomerAnswer sampleId={sample.id} quoteId={quote.id} />
              </Alert>
            )}
            {quote.status === 'expired' && isOwner && (
              <Text size="sm">This quote has expired; the lab can send you a new one.</Text>
            )}
            {quote.status === 'accepted' && <Invoice sample={sample} quote={quote} isAdmin={isAdmin} />}
          </>
        )}
        {canPrice && quote?.status !== 'accepted' && (
          <Group>
            <Button onClick={() => setSending(true)}>
              {quote?.status === 'sent' ? 'Replace Quote' : 'Send Quote'}
            </Button>
            {quote?.status === 'sent' && (
              <Button
                variant="outline"
                color="red"
                loading={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(undefined, {
                    onSuccess: () => toast.success('Quote withdrawn'),
                    onError: (err) =>
                      toast.error('Could not withdraw', errorMessage(err, 'Please try again.')),
                  })
                }
              >
                Withdraw Quote
              </Button>
            )}
          </Group>
        )}
      </Stack>
      {sending && <SendQuoteDialog sampleId={sample.id} onClose={() => setSending(false)} />}
    </Card>
  );
}
