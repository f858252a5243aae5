import { Button, Card, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import {
  IconArchive,
  IconArrowsMove,
  IconHandGrab,
  IconPackageImport,
  IconPrinter,
  IconTruckDelivery,
  IconUserSearch,
  IconUserShare,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { CustodyEventEntry, CustodyMoveRequest } from '../../../../common/contracts/custody';
import {
  conditionPhrase,
  CUSTODY_EVENT_LABELS,
  type CustodyMove,
  isInLab,
} from '../../../../common/domain/custody';
import { isLabRole } from '../../../../common/domain/roles';
import { displaySampleId } from '../../../../common/domain/samples';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import type { SampleCustodyPanelProps } from '../../../components/slots';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { custodyHistoryQuery, openLabel, useMoveItem } from '../api';
import { IntakeDialog, MoveDialog, ReturnDialog } from './CustodyDialogs';

/** An amount in major units, as the lab writes money ('€1,200.00'). */
const money = (value: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(value);

/** '3 March 2026': how the owner's timeline writes a day. */
export const custodyDay = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

const personName = (p: CustodyEventEntry['by']) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ') || 'Lab member' : null;

/** One line for the owner: "Received on 3 March 2026, in good order". */
export function ownerLine(e: CustodyEventEntry): string {
  const day = custodyDay(e.at);
  if (e.event === 'received')
    return e.conditionOnArrival
      ? `Received on ${day}, ${conditionPhrase(e.conditionOnArrival)}`
      : `Received on ${day}`;
  if (e.event === 'returned')
    return `Returned on ${day} by courier${e.carrier ? ` (${e.carrier})` : ''}, tracking ${e.trackingNumber ?? ''}`;
  if (e.event === 'collected') return `Collected on ${day}${e.collectedBy ? ` by ${e.collectedBy}` : ''}`;
  return `${CUSTODY_EVENT_LABELS[e.event]} on ${day}`;
}

/**
 * Who holds the item now (with an expert: the last hand-over's expert) and where it was last shelved:
 * what the one-click buttons offer.
 */
export function whereabouts(history: readonly CustodyEventEntry[], state: string) {
  const lastHandOver = history.findLast((e) => e.event === 'to-expert');
  const lastShelf = history.findLast((e) => e.state === 'in-storage' && e.location !== null);
  return {
    holder: state === 'with-expert' ? (lastHandOver?.expert ?? null) : null,
    shelf: lastShelf?.location ?? null,
  };
}

/** The details a lab member reads under an event. */
function labDetails(e: CustodyEventEntry): string[] {
  const out: string[] = [];
  if (e.expert) out.push(`Expert: ${e.expert.name}`);
  if (e.location) out.push(`Location: ${e.location.name}`);
  if (e.itemCount !== null) out.push(`${e.itemCount} ${e.itemCount === 1 ? 'piece' : 'pieces'}`);
  if (e.packaging) out.push(`Packaging: ${e.packaging}`);
  if (e.conditionOnArrival) out.push(`Condition: ${e.conditionOnArrival}`);
  if (e.photoIds.length) out.push(`${e.photoIds.length} arrival photo${e.photoIds.length === 1 ? '' : 's'}`);
  if (e.carrier) out.push(`Carrier: ${e.carrier}`);
  if (e.trackingNumber) out.push(`Tracking: ${e.trackingNumber}`);
  if (e.insuredValue !== null && e.insuredCurrency)
    out.push(`Insured for ${money(e.insuredValue, e.insuredCurrency)}`);
  if (e.collectedBy) out.push(`Collected by ${e.collectedBy}${e.idChecked ? ', ID checked' : ''}`);
  return out;
}

function History({ sampleId, labView }: { sampleId: number; labView: boolean }) {
  const q = useQuery(custodyHistoryQuery(sampleId));
  if (q.isPending) return <RowsSkeleton label="Loading the custody history..." rows={2} height={40} />;
  if (q.isError)
    return (
      <LoadError onRetry={() => q.refetch()} retrying={q.isFetching}>
        {errorMessage(q.error, 'Failed to load the custody history')}
      </LoadError>
    );
  if (q.data.length === 0)
    return (
      <Text c="dimmed">
        {labView ? 'No custody events yet.' : 'Your item has not arrived at the lab yet.'}
      </Text>
    );
  return (
    <Timeline active={q.data.length - 1} bulletSize={20} lineWidth={2} aria-label="Custody history">
      {q.data.map((e) =>
        labView ? (
          <Timeline.Item key={e.id} title={CUSTODY_EVENT_LABELS[e.event]}>
            <Text size="sm" c="dimmed">
              {formatDateTime(e.at)}
              {e.by ? ` · ${personName(e.by)}` : ''}
            </Text>
            {labDetails(e).map((d) => (
              <Text size="sm" key={d} style={{ overflowWrap: 'anywhere' }}>
                {d}
              </Text>
            ))}
            {e.note ? (
              <Text size="sm" fs="italic" style={{ overflowWrap: 'anywhere' }}>
                {e.note}
              </Text>
            ) : null}
          </Timeline.Item>
        ) : (
          <Timeline.Item key={e.id} title={ownerLine(e)}>
            {e.event === 'received' && e.itemCount !== null ? (
              <Text size="sm" c="dimmed">
                {e.itemCount === 1 ? 'One piece' : `${e.itemCount} pieces`}
                {e.packaging ? `, ${e.packaging}` : ''}
              </Text>
            ) : null}
            {e.event === 'returned' && e.insuredValue !== null && e.insuredCurrency ? (
              <Text size="sm" c="dimmed">
                Insured for {money(e.insuredValue, e.insuredCurrency)}
              </Text>
            ) : null}
          </Timeline.Item>
        ),
      )}
    </Timeline>
  );
}

const fullName = (p: { firstName: string | null; lastName: string | null } | null) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ') : '';

/**
 * The moves a lab member makes most, one click each (docs/product/custody.md): hand the item to its
 * assigned expert, take it yourself, put it back on the shelf it came from. Anything else goes
 * through the dialogs.
 */
function QuickMoves({ sample, label }: { sample: SampleCustodyPanelProps['sample']; label: string }) {
  const { user } = useSession();
  const history = useQuery(custodyHistoryQuery(sample.id));
  const move = useMoveItem(sample.id);
  const [pending, setPending] = useState<string | null>(null);
  if (!history.data || !user) return null;
  const state = sample.custody.state;
  const { holder, shelf } = whereabouts(history.data, state);
  const assigneeId = sample.assignedStaffId;
  const assignee = fullName(sample.assignedStaff) || 'the assigned expert';
  const buttons: { key: string; text: string; icon: ReactNode; body: CustodyMoveRequest; done: string }[] =
    [];
  if (assigneeId !== null && holder?.id !== assigneeId)
    buttons.push({
      key: 'assignee',
      text: `Hand to ${assignee}`,
      icon: <IconUserShare size={16} aria-hidden="true" />,
      body: { event: 'to-expert', expertId: assigneeId },
      done: `Handed to ${assignee}`,
    });
  if (assigneeId !== user.id && holder?.id !== user.id)
    buttons.push({
      key: 'me',
      text: 'Take it myself',
      icon: <IconHandGrab size={16} aria-hidden="true" />,
      body: { event: 'to-expert', expertId: user.id },
      done: 'The item is with you',
    });
  if (state !== 'in-storage' && shelf)
    buttons.push({
      key: 'shelf',
      text: `Back to ${shelf.name}`,
      icon: <IconArchive size={16} aria-hidden="true" />,
      body: { event: 'to-storage', locationId: shelf.id },
      done: `Put back in ${shelf.name}`,
    });
  if (buttons.length === 0) return null;
  const run = async (key: string, body: CustodyMoveRequest, done: string) => {
    setPending(key);
    try {
      await move.mutateAsync(body);
      toast.success(done, label);
    } catch (err) {
      toast.error('Error', errorMessage(err, 'Failed to move the item'));
    } finally {
      setPending(null);
    }
  };
  return (
    <Group gap="xs" role="group" aria-label="One-click moves" mb="sm">
      {buttons.map((b) => (
        <Button
          key={b.key}
          size="compact-md"
          leftSection={b.icon}
          loading={pending === b.key}
          disabled={pending !== null && pending !== b.key}
          onClick={() => void run(b.key, b.body, b.done)}
        >
          {b.text}
        </Button>
      ))}
    </Group>
  );
}

/**
 * The sample page's custody card (docs/product/custody.md). Staff and admins see where the item is,
 * every event, and the intake, move, return and label buttons; the owner sees its state and the
 * arrival and return.
 */
export function SampleCustodyPanel({ sample }: SampleCustodyPanelProps) {
  const { user } = useSession();
  const labView = isLabRole(user?.role);
  const [intakeOpen, setIntakeOpen] = useState(false);
  const [returnOpen, setReturnOpen] = useState(false);
  const [move, setMove] = useState<CustodyMove | null>(null);
  const c = sample.custody;
  const history = useQuery({ ...custodyHistoryQuery(sample.id), enabled: labView });
  const holder = labView && history.data ? whereabouts(history.data, c.state).holder : null;
  const label = `${displaySampleId(sample.id)} ${sample.itemName}`;
  const inLab = isInLab(c.state);
  const declared =
    sample.declaredValue !== null && sample.declaredCurrency
      ? { value: sample.declaredValue, currency: sample.declaredCurrency }
      : null;

  // The scan box opens the sample at its custody card (`#custody`): the one-click moves are next.
  const cardRef = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#custody') cardRef.current?.focus();
  }, [hash]);

  const printLabel = async () => {
    try {
      await openLabel(sample.id);
    } catch (err) {
      toast.error('Error', errorMessage(err, 'Failed to open the label'));
    }
  };

  return (
    <Card
      ref={cardRef}
      id="custody"
      tabIndex={-1}
      withBorder
      radius="md"
      padding="lg"
      mt="lg"
      component="section"
      aria-labelledby="custody-title"
    >
      <Group justify="space-between" align="flex-start" gap="sm" mb="sm">
        <div>
          <Title order={2} size="h4" id="custody-title">
            Custody
          </Title>
          <Group gap="xs" mt={4}>
            <CustodyBadge state={c.state} />
            <Text size="sm" c="dimmed">
              since {formatDateTime(c.since)}
            </Text>
          </Group>
          {holder ? (
            <Text size="sm" mt={4}>
              Held by <strong>{holder.name}</strong>
            </Text>
          ) : null}
          {labView && c.location ? (
            <Text size="sm" mt={4}>
              Location: <strong>{c.location.name}</strong>
            </Text>
          ) : null}
          {declared ? (
            <Text size="sm" mt={4}>
              Declared value: {money(declared.value, declared.currency)}
            </Text>
          ) : null}
        </div>
      </Group>
      {labView && inLab ? <QuickMoves sample={sample} label={label} /> : null}
      {labView ? (
        <Group gap="xs" mb="sm">
          {c.state === 'awaiting-arrival' ? (
            <Button
              leftSection={<IconPackageImport size={16} aria-hidden="true" />}
              onClick={() => setIntakeOpen(true)}
            >
              Receive item
            </Button>
          ) : null}
          {inLab ? (
            <>
              <Button
                variant="light"
                leftSection={<IconArrowsMove size={16} aria-hidden="true" />}
                onClick={() => setMove('moved')}
              >
                Move
              </Button>
              <Button
                variant="light"
                leftSection={<IconUserSearch size={16} aria-hidden="true" />}
                onClick={() => setMove('to-expert')}
              >
                Hand to an expert…
              </Button>
              {c.state !== 'in-storage' ? (
                <Button
                  variant="light"
                  leftSection={<IconArchive size={16} aria-hidden="true" />}
                  onClick={() => setMove('to-storage')}
                >
                  Put in storage
                </Button>
              ) : null}
              <Button
                variant="light"
                leftSection={<IconTruckDelivery size={16} aria-hidden="true" />}
                onClick={() => setReturnOpen(true)}
              >
                Return item
              </Button>
            </>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} aria-hidden="true" />}
            onClick={() => void printLabel()}
          >
            Print label
          </Button>
        </Group>
      ) : null}
      <Stack gap="xs">
        <History sampleId={sample.id} labView={labView} />
      </Stack>
      {intakeOpen ? (
        <IntakeDialog sampleId={sample.id} label={label} opened onClose={() => setIntakeOpen(false)} />
      ) : null}
      {returnOpen ? (
        <ReturnDialog
          sampleId={sample.id}
          label={label}
          declared={declared}
          opened
          onClose={() => setReturnOpen(false)}
        />
      ) : null}
      <MoveDialog
        sampleId={sample.id}
        label={label}
        move={move}
        defaultExpertId={sample.assignedStaffId}
        onClose={() => setMove(null)}
      />
    </Card>
  );
}
