import { Button, Card, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import {
  IconArchive,
  IconArrowsMove,
  IconPackageImport,
  IconPrinter,
  IconTruckDelivery,
  IconUserSearch,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CustodyEventEntry } from '../../../../common/contracts/custody';
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
import { custodyHistoryQuery, openLabel } from '../api';
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

/** The details a lab member reads under an event. */
function labDetails(e: CustodyEventEntry): string[] {
  const out: string[] = [];
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
  const label = `${displaySampleId(sample.id)} ${sample.itemName}`;
  const inLab = isInLab(c.state);
  const declared =
    sample.declaredValue !== null && sample.declaredCurrency
      ? { value: sample.declaredValue, currency: sample.declaredCurrency }
      : null;

  const printLabel = async () => {
    try {
      await openLabel(sample.id);
    } catch (err) {
      toast.error('Error', errorMessage(err, 'Failed to open the label'));
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" mt="lg" component="section" aria-labelledby="custody-title">
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
        {labView ? (
          <Group gap="xs">
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
                {c.state !== 'with-expert' ? (
                  <Button
                    variant="light"
                    leftSection={<IconUserSearch size={16} aria-hidden="true" />}
                    onClick={() => setMove('to-expert')}
                  >
                    Hand to an expert
                  </Button>
                ) : null}
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
      </Group>
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
      <MoveDialog sampleId={sample.id} label={label} move={move} onClose={() => setMove(null)} />
    </Card>
  );
}
