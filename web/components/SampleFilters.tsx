import { Button, Checkbox, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import {
  CUSTODY_STATES,
  MAX_SEARCH_LENGTH,
  SAMPLE_SORT_LABELS,
  SAMPLE_SORTS,
  type SampleFilters as Filters,
  type SampleSort,
} from '../../common/contracts/sample-search';
import { SAMPLE_STATUS_LABELS, SAMPLE_STATUSES, type SampleStatus } from '../../common/domain/samples';
import { isFiltered } from '../lib/sample-filters';

const CUSTODY_LABELS: Record<(typeof CUSTODY_STATES)[number], string> = {
  'awaiting-arrival': 'Awaiting arrival',
  received: 'Received',
  'in-storage': 'In storage',
  'with-expert': 'With expert',
  returned: 'Returned',
  collected: 'Collected',
};

/** How long the search box waits after the last key before the list follows. */
const SEARCH_DELAY_MS = 350;

/**
 * The search box, filters and sort of a lab list (admin Samples tab, staff dashboard). The values
 * come from and go to the page's URL (`useListView`): typing replaces the URL, other changes push
 * a history entry, so Back steps through them.
 */
export function SampleFilters({
  value,
  onChange,
  staff,
  showCustody = false,
  onExport,
  exporting = false,
}: {
  value: Filters;
  onChange: (next: Filters, opts?: { replace?: boolean }) => void;
  /** Assignee choices (admins only); absent: no assignee filter. */
  staff?: { value: string; label: string }[];
  showCustody?: boolean;
  onExport?: () => void;
  exporting?: boolean;
}) {
  const [text, setText] = useState(value.q ?? '');
  const latest = useRef(value);
  latest.current = value;
  // The URL changed from elsewhere (Back, a link): the box shows it.
  useEffect(() => setText(value.q ?? ''), [value.q]);
  useEffect(() => {
    const q = text.trim() || undefined;
    if (q === (latest.current.q ?? undefined)) return;
    const timer = setTimeout(() => onChange({ ...latest.current, q }, { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onChange]);

  const set = (patch: Partial<Filters>) => onChange({ ...value, q: text.trim() || undefined, ...patch });
  const statuses = value.status ?? [];

  return (
    <Stack gap="sm" component="section" aria-label="Search and filters">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search"
          name="q"
          type="search"
          placeholder="VAL id, report code, item, client or e-mail"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={text}
          maxLength={MAX_SEARCH_LENGTH}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') set({ q: e.currentTarget.value.trim() || undefined });
          }}
          style={{ flex: '1 1 16rem', minWidth: '12rem' }}
        />
        <NativeSelect
          label="Sort by"
          name="sort"
          value={value.sort ?? ''}
          onChange={(e) => set({ sort: (e.currentTarget.value || undefined) as SampleSort | undefined })}
          data={[
            { value: '', label: 'Newest first' },
            ...SAMPLE_SORTS.map((s) => ({ value: s, label: SAMPLE_SORT_LABELS[s] })),
          ]}
        />
      </Group>
      <Checkbox.Group
        label="Status"
        value={statuses}
        onChange={(next) => set({ status: next.length ? (next as SampleStatus[]) : undefined })}
      >
        <Group gap="md" mt={4}>
          {SAMPLE_STATUSES.map((s) => (
            <Checkbox key={s} value={s} name="status" label={SAMPLE_STATUS_LABELS[s]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {staff ? (
          <NativeSelect
            label="Assigned staff"
            name="assignedStaffId"
            value={value.assignedStaffId === undefined ? '' : String(value.assignedStaffId)}
            onChange={(e) => {
              const v = e.currentTarget.value;
              set({ assignedStaffId: v === '' ? undefined : v === 'none' ? 'none' : Number(v) });
            }}
            data={[{ value: '', label: 'Anyone' }, { value: 'none', label: 'Unassigned' }, ...staff]}
          />
        ) : null}
        {showCustody ? (
          <NativeSelect
            label="Custody"
            name="custody"
            value={value.custody?.[0] ?? ''}
            onChange={(e) => {
              const v = e.currentTarget.value as (typeof CUSTODY_STATES)[number] | '';
              set({ custody: v ? [v] : undefined });
            }}
            data={[
              { value: '', label: 'Any' },
              ...CUSTODY_STATES.map((c) => ({ value: c, label: CUSTODY_LABELS[c] })),
            ]}
          />
        ) : null}
        <TextInput
          label="Submitted from"
          name="from"
          type="date"
          value={value.from ?? ''}
          max={value.to}
          onChange={(e) => set({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          label="Submitted to"
          name="to"
          type="date"
          value={value.to ?? ''}
          min={value.from}
          onChange={(e) => set({ to: e.currentTarget.value || undefined })}
        />
        <Checkbox
          label="Overdue only"
          name="overdue"
          checked={value.overdue === true}
          onChange={(e) => set({ overdue: e.currentTarget.checked ? true : undefined })}
          mb={8}
        />
        {isFiltered(value) ? (
          <Button variant="subtle" onClick={() => onChange({})}>
            Clear filters
          </Button>
        ) : null}
        {onExport ? (
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={onExport}
            loading={exporting}
          >
            Export CSV
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
