import { Alert, Button, Code, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AUDIT_PAGE_SIZE, type AuditEvent } from '../../../../common/contracts/audit';
import { AUDIT_ACTIONS, AUDIT_SUBJECT_TYPES } from '../../../../common/domain/audit';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { auditQuery, downloadAuditCsv, useVerifyAuditChain } from '../api';
import { reason } from './messages';
import { type Column, NO_WRAP, PagedTable } from './PagedTable';

/** The filters as the page's URL keeps them (prefixed: the dashboard's other tabs have their own). */
const FILTERS = [
  ['action', 'auditAction'],
  ['subjectType', 'auditSubjectType'],
  ['subjectId', 'auditSubjectId'],
  ['actor', 'auditActor'],
  ['from', 'auditFrom'],
  ['to', 'auditTo'],
] as const;
type FilterName = (typeof FILTERS)[number][0];
type Filters = Record<FilterName, string>;
const PAGE_PARAM = 'auditPage';

function filtersFrom(params: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map(([name, param]) => [name, params.get(param) ?? ''])) as Filters;
}

/** The API's query string for the filters that are set. */
function apiQuery(filters: Filters): string {
  const q = new URLSearchParams();
  for (const [name] of FILTERS) if (filters[name].trim()) q.set(name, filters[name].trim());
  return q.toString();
}

/** Before → after, as compact JSON (the fields an event changed). */
function Change({ event }: { event: AuditEvent }) {
  const show = (v: unknown) => (v === null || v === undefined ? '—' : JSON.stringify(v));
  return (
    <Stack gap={2}>
      {event.before !== null && event.before !== undefined ? (
        <Text size="xs" style={{ wordBreak: 'break-word' }}>
          <Text span fw={600} size="xs">
            Before:{' '}
          </Text>
          <Code>{show(event.before)}</Code>
        </Text>
      ) : null}
      <Text size="xs" style={{ wordBreak: 'break-word' }}>
        <Text span fw={600} size="xs">
          After:{' '}
        </Text>
        <Code>{show(event.after)}</Code>
      </Text>
    </Stack>
  );
}

const columns: Column<AuditEvent>[] = [
  { label: 'Event', cell: (e) => `#${e.id}`, style: NO_WRAP },
  { label: 'Time', cell: (e) => formatDateTime(e.at), style: NO_WRAP },
  {
    label: 'Actor',
    cell: (e) => (e.actorId === null ? e.actorLabel : `${e.actorLabel} (#${e.actorId})`),
    style: { wordBreak: 'break-word' },
  },
  { label: 'Action', cell: (e) => <Code>{e.action}</Code> },
  {
    label: 'Subject',
    cell: (e) => (e.subjectId === null ? e.subjectType : `${e.subjectType} ${e.subjectId}`),
  },
  { label: 'Change', cell: (e) => <Change event={e} /> },
  { label: 'Network', cell: (e) => e.network ?? '—', style: NO_WRAP },
];

/** The result of "Verify chain", in words. */
function Verification({ result }: { result: ReturnType<typeof useVerifyAuditChain> }) {
  if (result.isError)
    return (
      <Alert color="red" role="alert" title="Could not verify the chain">
        {reason(result.error)}
      </Alert>
    );
  if (!result.data) return null;
  const v = result.data;
  return v.valid ? (
    <Alert color="teal" role="status" title="Chain valid" style={{ overflowWrap: 'anywhere' }}>
      {`${v.events.toLocaleString('en')} ${v.events === 1 ? 'event' : 'events'} checked; none was changed or removed. Head hash: ${v.headHash}`}
    </Alert>
  ) : (
    <Alert color="red" role="alert" title={`Chain broken at event ${v.firstBrokenId ?? '?'}`}>
      {`${v.problem ?? 'The chain does not check out.'} ${v.events.toLocaleString('en')} events in the log.`}
    </Alert>
  );
}

/**
 * The admin dashboard's Audit tab (docs/product/audit-trail.md): every recorded change, newest first,
 * filtered by action, subject, actor and dates (kept in the URL, so a view can be bookmarked), the
 * CSV of what the filters select, and a check of the whole hash chain.
 */
export function AuditTab() {
  const [params, setParams] = useSearchParams();
  const applied = filtersFrom(params);
  const page = Math.max(1, Number(params.get(PAGE_PARAM)) || 1);
  const [draft, setDraft] = useState<Filters>(applied);
  const query = apiQuery(applied);
  const events = useQuery(auditQuery(query, page, AUDIT_PAGE_SIZE));
  const verify = useVerifyAuditChain();
  const [exporting, setExporting] = useState(false);

  // Opening the tab names it in the URL, so a reload or a shared link comes back to it.
  useEffect(() => {
    if (params.get('tab') !== 'audit')
      setParams(
        (p) => {
          p.set('tab', 'audit');
          return p;
        },
        { replace: true },
      );
  }, [params, setParams]);

  const go = (filters: Filters, toPage: number) =>
    setParams((p) => {
      for (const [name, param] of FILTERS) {
        if (filters[name].trim()) p.set(param, filters[name].trim());
        else p.delete(param);
      }
      if (toPage > 1) p.set(PAGE_PARAM, String(toPage));
      else p.delete(PAGE_PARAM);
      p.set('tab', 'audit');
      return p;
    });

  const apply = (e: FormEvent) => {
    e.preventDefault();
    go(draft, 1);
  };
  const clear = () => {
    const empty = Object.fromEntries(FILTERS.map(([name]) => [name, ''])) as Filters;
    setDraft(empty);
    go(empty, 1);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(query);
    } catch (err) {
      toast.error('Error', `Failed to export the audit trail: ${reason(err)}`);
    } finally {
      setExporting(false);
    }
  };
  const set = (name: FilterName) => (value: string | null) =>
    setDraft((d) => ({ ...d, [name]: value ?? '' }));

  return (
    <Stack gap="md">
      <form onSubmit={apply} aria-label="Audit filters">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          <Select
            label="Action"
            name="action"
            placeholder="Any action"
            data={[...AUDIT_ACTIONS]}
            value={draft.action || null}
            onChange={set('action')}
            searchable
            clearable
          />
          <Select
            label="Subject type"
            name="subjectType"
            placeholder="Any subject"
            data={[...AUDIT_SUBJECT_TYPES]}
            value={draft.subjectType || null}
            onChange={set('subjectType')}
            clearable
          />
          <TextInput
            label="Subject id"
            name="subjectId"
            description="A sample's number (42 for VAL-0042), an account's id…"
            value={draft.subjectId}
            onChange={(e) => set('subjectId')(e.currentTarget.value)}
          />
          <TextInput
            label="Actor"
            name="actor"
            description="An account id, an e-mail address, or system"
            value={draft.actor}
            onChange={(e) => set('actor')(e.currentTarget.value)}
          />
          <TextInput
            label="From"
            name="from"
            type="date"
            value={draft.from}
            onChange={(e) => set('from')(e.currentTarget.value)}
          />
          <TextInput
            label="To"
            name="to"
            type="date"
            value={draft.to}
            onChange={(e) => set('to')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group mt="md" gap="sm">
          <Button type="submit">Apply filters</Button>
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={exportCsv}
            loading={exporting}
          >
            Export CSV
          </Button>
          <Button
            variant="light"
            color="teal"
            leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
            onClick={() => verify.mutate()}
            loading={verify.isPending}
          >
            Verify chain
          </Button>
        </Group>
      </form>
      <Verification result={verify} />
      <PagedTable
        query={events}
        rowsOf={(data) => data.rows}
        loading="Loading the audit trail..."
        failure={(why) => `Failed to load the audit trail: ${why}. Please try again.`}
        columns={columns}
        idAttribute="data-event-id"
        minWidth={1100}
        empty={page === 1 ? 'No events match these filters.' : `No events on page ${page}.`}
        page={page}
        onPage={(p) => go(applied, p)}
        pagerLabel="Audit trail pages"
        pageSize={AUDIT_PAGE_SIZE}
        above={(data) => (
          <Text size="sm" c="gray.7" role="status">
            {`${(data.total ?? 0).toLocaleString('en')} ${data.total === 1 ? 'event' : 'events'}`}
          </Text>
        )}
      />
    </Stack>
  );
}
