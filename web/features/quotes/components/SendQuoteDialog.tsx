import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type QuoteDraft, sendQuoteRequest } from '../../../../common/contracts/quotes';
import { formatMoney, parseAmount, sumMinor } from '../../../../common/domain/money';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { quoteDraftQuery, useSendQuote } from '../api';

// "Send Quote": pre-filled from the price list, every line editable (docs/product/quotes.md).

type Line = { description: string; amount: string };

function QuoteForm({
  sampleId,
  draft,
  onClose,
}: {
  sampleId: number;
  draft: QuoteDraft;
  onClose: () => void;
}) {
  const send = useSendQuote(sampleId);
  const [lines, setLines] = useState<Line[]>(
    draft.lines.map((l) => ({ description: l.description, amount: String(l.amount) })),
  );
  const [validUntil, setValidUntil] = useState(draft.validUntil);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const amounts = lines.map((l) => parseAmount(l.amount, draft.currency));
  const total = amounts.every((a) => a.ok) ? sumMinor(amounts.map((a) => (a.ok ? a.minor : 0))) : null;
  const setLine = (i: number, change: Partial<Line>) =>
    setLines((all) => all.map((l, j) => (j === i ? { ...l, ...change } : l)));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = { lines, currency: draft.currency, validUntil, note: note || null };
    const parsed = sendQuoteRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.'), i.message])));
      return;
    }
    setErrors({});
    send.mutate(body, {
      onSuccess: () => {
        toast.success('Quote sent', 'The customer has been e-mailed.');
        onClose();
      },
      onError: (err) => toast.error('Could not send the quote', errorMessage(err, 'Please try again.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Send quote">
      <Stack gap="sm">
        {draft.urgent && (
          <Text size="sm" c="gray.7">
            Urgent sample: the price list's surcharge is included.
          </Text>
        )}
        {lines.map((line, i) => (
          <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
            <TextInput
              style={{ flex: 1 }}
              id={`quote-line-${i}-description`}
              label={`Line ${i + 1}`}
              value={line.description}
              error={errors[`lines.${i}.description`]}
              onChange={(e) => setLine(i, { description: e.currentTarget.value })}
            />
            <TextInput
              w={130}
              id={`quote-line-${i}-amount`}
              label={`Amount (${draft.currency})`}
              inputMode="decimal"
              value={line.amount}
              error={errors[`lines.${i}.amount`]}
              onChange={(e) => setLine(i, { amount: e.currentTarget.value })}
            />
            <ActionIcon
              mt={28}
              variant="subtle"
              color="red"
              aria-label={`Remove line ${i + 1}`}
              disabled={lines.length === 1}
              onClick={() => setLines((all) => all.filter((_, j) => j !== i))}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        {errors.lines && (
          <Text c="red" size="sm">
            {errors.lines}
          </Text>
        )}
        <Group justify="space-between">
          <Button
            variant="light"
            size="xs"
            onClick={() => setLines((all) => [...all, { description: '', amount: '0' }])}
          >
            Add Line
          </Button>
          <Text fw={700} data-testid="quote-total">
            Total: {total === null ? '—' : formatMoney(total, draft.currency)}
          </Text>
        </Group>
        <TextInput
          id="quote-valid-until"
          label="Valid until"
          type="date"
          value={validUntil}
          error={errors.validUntil}
          onChange={(e) => setValidUntil(e.currentTarget.value)}
        />
        <Textarea
          id="quote-note"
          label="Note to the customer (optional)"
          maxLength={2000}
          value={note}
          error={errors.note}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="subtle" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending}>
            Send Quote
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SendQuoteDialog({ sampleId, onClose }: { sampleId: number; onClose: () => void }) {
  const draft = useQuery(quoteDraftQuery(sampleId));
  return (
    <Modal opened onClose={onClose} title="Send Quote" size="lg">
      {draft.isPending && <Loader role="status" aria-label="Loading the price list" />}
      {draft.isError && (
        <Alert color="red" role="alert">
          {errorMessage(draft.error, 'Failed to load the price list')}
        </Alert>
      )}
      {draft.data && <QuoteForm sampleId={sampleId} draft={draft.data} onClose={onClose} />}
    </Modal>
  );
}
