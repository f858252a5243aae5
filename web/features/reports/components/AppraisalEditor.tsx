import {
  Alert,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useState } from 'react';
import { comparableInput } from '../../../../common/contracts/appraisal';
import type { SampleFile } from '../../../../common/contracts/samples';
import {
  INSPECTION_TYPES,
  INTENDED_USE_MAX,
  INTENDED_USERS_MAX,
  MAX_COMPARABLES,
  PROPERTY_INTERESTS,
} from '../../../../common/domain/appraisal';
import { isCurrencyCode, parseAmount, formatMoney } from '../../../../common/domain/money';
import { COMMON_CURRENCIES, dateInWords, latestEffectiveDate } from '../../../../common/domain/valuation';
import {
  type AssignmentDraft,
  type ComparableDraft,
  type DraftErrors,
  newComparable,
  type ReportDraft,
  type TaxDraft,
  errorsByPath,
} from '../report-draft';
import { EditorSection } from './ReportContentEditor';
import { NotesEditor } from '../../../components/NotesEditor';

// The appraisal's parts of the report editor (docs/product/appraisal-report.md): the assignment,
// the comparable sales, the re-valuation date and, for a charitable donation, the tax details.
// They go with a value: a report without one sends none of them.

const CURRENCIES = (() => {
  const all = (Intl.supportedValuesOf?.('currency') ?? []).filter(
    (c) => isCurrencyCode(c) && !(COMMON_CURRENCIES as readonly string[]).includes(c),
  );
  return [
    { group: 'Common', items: [...COMMON_CURRENCIES] },
    { group: 'All currencies', items: all },
  ];
})();

function AssignmentFields({
  value,
  onChange,
  errors,
}: {
  value: AssignmentDraft;
  onChange: (v: AssignmentDraft) => void;
  errors: DraftErrors;
}) {
  const set = (patch: Partial<AssignmentDraft>) => onChange({ ...value, ...patch });
  const err = (f: keyof AssignmentDraft) => errors[`assignment.${f}`];
  return (
    <Stack gap="sm">
      <Textarea
        label="Intended use"
        name="assignment.intendedUse"
        description="What the value is for; starts from the client's stated purpose"
        autosize
        minRows={2}
        maxLength={INTENDED_USE_MAX}
        value={value.intendedUse}
        error={err('intendedUse')}
        onChange={(e) => set({ intendedUse: e.currentTarget.value })}
      />
      <TextInput
        label="Intended users"
        name="assignment.intendedUsers"
        description="Who may rely on the report, e.g. the client and their insurer"
        maxLength={INTENDED_USERS_MAX}
        value={value.intendedUsers}
        error={err('intendedUsers')}
        onChange={(e) => set({ intendedUsers: e.currentTarget.value })}
      />
      <NotesEditor
        label="Definition of value, with its source"
        name="assignment.valueDefinition"
        value={value.valueDefinition}
        error={err('valueDefinition')}
        onChange={(valueDefinition) => set({ valueDefinition })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Property interest"
          name="assignment.propertyInterest"
          allowDeselect={false}
          data={PROPERTY_INTERESTS.map((o) => ({ value: o.value, label: o.label }))}
          value={value.propertyInterest || null}
          error={err('propertyInterest')}
          onChange={(v) => set({ propertyInterest: v ?? '' })}
        />
        {value.propertyInterest === 'other' ? (
          <TextInput
            label="Interest appraised"
            name="assignment.propertyInterestOther"
            value={value.propertyInterestOther}
            error={err('propertyInterestOther')}
            onChange={(e) => set({ propertyInterestOther: e.currentTarget.value })}
          />
        ) : (
          <div />
        )}
        <Select
          label="Inspection"
          name="assignment.inspection"
          placeholder="How the item was inspected"
          data={INSPECTION_TYPES.map((o) => ({ value: o.value, label: o.label }))}
          value={value.inspection || null}
          error={err('inspection')}
          onChange={(v) => set({ inspection: v ?? '' })}
        />
        <TextInput
          type="date"
          label="Inspection date"
          name="assignment.inspectionDate"
          max={latestEffectiveDate()}
          value={value.inspectionDate}
          error={err('inspectionDate')}
          onChange={(e) => set({ inspectionDate: e.currentTarget.value })}
        />
      </SimpleGrid>
      <NotesEditor
        label="Scope of work"
        name="assignment.scopeOfWork"
        value={value.scopeOfWork}
        error={err('scopeOfWork')}
        onChange={(scopeOfWork) => set({ scopeOfWork })}
      />
      <NotesEditor
        label="Extraordinary assumptions (optional)"
        name="assignment.extraordinaryAssumptions"
        value={value.extraordinaryAssumptions}
        onChange={(extraordinaryAssumptions) => set({ extraordinaryAssumptions })}
      />
      <NotesEditor
        label="Hypothetical conditions (optional)"
        name="assignment.hypotheticalConditions"
        value={value.hypotheticalConditions}
        onChange={(hypotheticalConditions) => set({ hypotheticalConditions })}
      />
      <NotesEditor
        label="Limiting conditions"
        name="assignment.limitingConditions"
        value={value.limitingConditions}
        error={err('limitingConditions')}
        onChange={(limitingConditions) => set({ limitingConditions })}
      />
    </Stack>
  );
}

/** "£12,500.00", or the typed text when it is not (yet) an amount. */
function priceText(c: Pick<ComparableDraft, 'price' | 'currency'>): string {
  if (!isCurrencyCode(c.currency)) return `${c.price} ${c.currency}`;
  const parsed = parseAmount(c.price, c.currency);
  return parsed.ok ? formatMoney(parsed.minor, c.currency) : `${c.price} ${c.currency}`;
}

type SortKey = 'saleDate' | 'price';
type Sort = { key: SortKey; dir: 'ascending' | 'descending' } | null;

/** Sorts in the currency's own amounts: prices in different currencies are compared as numbers, never converted. */
function sortComparables(rows: ComparableDraft[], key: SortKey, dir: 'ascending' | 'descending') {
  const sign = dir === 'ascending' ? 1 : -1;
  const num = (c: ComparableDraft) => Number(c.price) || 0;
  return [...rows].sort((a, b) =>
    key === 'saleDate' ? sign * a.saleDate.localeCompare(b.saleDate) : sign * (num(a) - num(b)),
  );
}

function SortHeader({
  label,
  sortKey,
  sort,
  onSort,
}: {
  label: string;
  sortKey: SortKey;
  sort: Sort;
  onSort: (key: SortKey) => void;
}) {
  const active = sort?.key === sortKey;
  const Icon = !active ? IconArrowsSort : sort.dir === 'ascending' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? sort.dir : 'none'}>
      <UnstyledButton onClick={() => onSort(sortKey)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden="true" />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The form of one comparable sale (new or edited), checked with the server's schema before it joins the table. */
function ComparableForm({
  initial,
  photos,
  onSave,
  onCancel,
  index,
}: {
  initial: ComparableDraft;
  photos: SampleFile[];
  onSave: (c: ComparableDraft) => void;
  onCancel: () => void;
  index: number;
}) {
  const [c, setC] = useState(initial);
  const [errors, setErrors] = useState<DraftErrors>({});
  const set = (patch: Partial<ComparableDraft>) => setC((x) => ({ ...x, ...patch }));
  const save = () => {
    const parsed = comparableInput.safeParse({
      ...c,
      price: c.price.trim(),
      lotUrl: c.lotUrl.trim() || null,
      notes: c.notes.trim() || null,
    });
    if (!parsed.success) {
      setErrors(errorsByPath(parsed.error.issues));
      return;
    }
    onSave({ ...c, price: c.price.trim(), currency: parsed.data.currency });
  };
  return (
    <Stack
      gap="sm"
      p="sm"
      role="group"
      aria-label={`Comparable sale ${index + 1}`}
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8 }}
    >
      <Text fw={700} size="sm">
        Comparable sale {index + 1}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Description"
          name="comparable.description"
          value={c.description}
          error={errors.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
        />
        <TextInput
          label="Source"
          name="comparable.source"
          description="Auction house, dealer or price database"
          value={c.source}
          error={errors.source}
          onChange={(e) => set({ source: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label="Sale date"
          name="comparable.saleDate"
          max={latestEffectiveDate()}
          value={c.saleDate}
          error={errors.saleDate}
          onChange={(e) => set({ saleDate: e.currentTarget.value })}
        />
        <Select
          label="Sale currency"
          name="comparable.currency"
          searchable
          allowDeselect={false}
          data={CURRENCIES}
          value={c.currency || null}
          error={errors.currency}
          onChange={(v) => set({ currency: v ?? '' })}
          nothingFoundMessage="No such currency"
        />
        <TextInput
          label={`Price (${c.currency})`}
          name="comparable.price"
          description="In the currency of the sale; never converted"
          inputMode="decimal"
          value={c.price}
          error={errors.price}
          onChange={(e) => set({ price: e.currentTarget.value })}
        />
        <TextInput
          label="Lot link (optional)"
          name="comparable.lotUrl"
          placeholder="https://"
          value={c.lotUrl}
          error={errors.lotUrl}
          onChange={(e) => set({ lotUrl: e.currentTarget.value })}
        />
        <Select
          label="Photo (optional)"
          name="comparable.photoFileId"
          placeholder="No photo"
          clearable
          data={photos.map((p) => ({ value: String(p.id), label: p.originalName }))}
          value={c.photoFileId ? String(c.photoFileId) : null}
          onChange={(v) => set({ photoFileId: v ? Number(v) : null })}
        />
      </SimpleGrid>
      <Textarea
        label="Notes (optional)"
        name="comparable.notes"
        autosize
        minRows={2}
        value={c.notes}
        error={errors.notes}
        onChange={(e) => set({ notes: e.currentTarget.value })}
      />
      <Group gap="sm">
        <Button onClick={save}>Save comparable</Button>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

function ComparablesTable({
  rows,
  onChange,
  photos,
  currency,
  errors,
}: {
  rows: ComparableDraft[];
  onChange: (rows: ComparableDraft[]) => void;
  photos: SampleFile[];
  currency: string;
  errors: DraftErrors;
}) {
  const [editing, setEditing] = useState<{ index: number; row: ComparableDraft } | null>(null);
  const [sort, setSort] = useState<Sort>(null);
  const [announcement, setAnnouncement] = useState('');
  const full = rows.length >= MAX_COMPARABLES;
  const onSort = (key: SortKey) => {
    const dir = sort?.key === key && sort.dir === 'ascending' ? 'descending' : 'ascending';
    setSort({ key, dir });
    onChange(sortComparables(rows, key, dir));
    setAnnouncement(`Comparables sorted by ${key === 'saleDate' ? 'sale date' : 'price'}, ${dir}.`);
  };
  const save = (c: ComparableDraft) => {
    if (!editing) return;
    const next = [...rows];
    if (editing.index < rows.length) next[editing.index] = c;
    else next.push(c);
    onChange(next);
    setEditing(null);
    setSort(null);
    setAnnouncement(`Comparable sale ${editing.index + 1} saved.`);
  };
  const rowErrors = Object.entries(errors).filter(([k]) => k.startsWith('comparables'));
  return (
    <Stack gap="sm">
      {rows.length ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped withTableBorder aria-label="Comparable sales">
            <Table.Thead>
              <Table.Tr>
                <SortHeader label="Sale date" sortKey="saleDate" sort={sort} onSort={onSort} />
                <Table.Th>Description</Table.Th>
                <Table.Th>Source</Table.Th>
                <SortHeader label="Price" sortKey="price" sort={sort} onSort={onSort} />
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c, i) => (
                <Table.Tr key={c.key}>
                  <Table.Td>{c.saleDate ? dateInWords(c.saleDate) : ''}</Table.Td>
                  <Table.Td>{c.description}</Table.Td>
                  <Table.Td>{c.source}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{priceText(c)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        aria-label={`Edit comparable sale ${i + 1}`}
                        onClick={() => setEditing({ index: i, row: c })}
                      >
                        Edit
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove comparable sale ${i + 1}`}
                        onClick={() => {
                          onChange(rows.filter((r) => r.key !== c.key));
                          setAnnouncement(`Comparable sale ${i + 1} removed.`);
                        }}
                      >
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm" c="gray.7">
          No comparable sales yet.
        </Text>
      )}
      {rowErrors.length ? (
        <Alert color="red" role="alert" title="Check the comparable sales">
          {rowErrors.map(([path, message]) => (
            <Text size="sm" key={path}>
              {path.replace(/^comparables\.?(\d+)?\.?/, (_m, n: string | undefined) =>
                n === undefined ? '' : `Comparable sale ${Number(n) + 1}: `,
              )}
              {message}
            </Text>
          ))}
        </Alert>
      ) : null}
      {editing ? (
        <ComparableForm
          key={editing.row.key}
          initial={editing.row}
          index={editing.index}
          photos={photos}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <Group gap="sm">
          <Button
            variant="light"
            disabled={full}
            onClick={() => setEditing({ index: rows.length, row: newComparable(currency) })}
          >
            Add comparable sale
          </Button>
          <Text size="sm" c="gray.7">
            {rows.length} of {MAX_COMPARABLES}
          </Text>
        </Group>
      )}
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
    </Stack>
  );
}

function TaxFields({
  value,
  onChange,
  errors,
  currency,
}: {
  value: TaxDraft;
  onChange: (v: TaxDraft) => void;
  errors: DraftErrors;
  currency: string;
}) {
  const set = (patch: Partial<TaxDraft>) => onChange({ ...value, ...patch });
  const err = (f: keyof TaxDraft) => errors[`taxAppraisal.${f}`];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextInput
        label="Donee"
        name="taxAppraisal.donee"
        description="The organisation receiving the gift"
        value={value.donee}
        error={err('donee')}
        onChange={(e) => set({ donee: e.currentTarget.value })}
      />
      <TextInput
        type="date"
        label="Contribution date"
        name="taxAppraisal.contributionDate"
        value={value.contributionDate}
        error={err('contributionDate')}
        onChange={(e) => set({ contributionDate: e.currentTarget.value })}
      />
      <TextInput
        type="date"
        label="Date acquired (optional)"
        name="taxAppraisal.dateAcquired"
        max={latestEffectiveDate()}
        value={value.dateAcquired}
        error={err('dateAcquired')}
        onChange={(e) => set({ dateAcquired: e.currentTarget.value })}
      />
      <TextInput
        label="How acquired"
        name="taxAppraisal.howAcquired"
        description="Purchase, gift, inheritance…"
        value={value.howAcquired}
        error={err('howAcquired')}
        onChange={(e) => set({ howAcquired: e.currentTarget.value })}
      />
      <TextInput
        label={`Cost basis (${currency}, optional)`}
        name="taxAppraisal.costBasis"
        inputMode="decimal"
        value={value.costBasis}
        error={err('costBasis')}
        onChange={(e) => set({ costBasis: e.currentTarget.value })}
      />
      <TextInput
        label="Appraiser's taxpayer identification number"
        name="taxAppraisal.appraiserTaxId"
        value={value.appraiserTaxId}
        error={err('appraiserTaxId')}
        onChange={(e) => set({ appraiserTaxId: e.currentTarget.value })}
      />
    </SimpleGrid>
  );
}

/** The appraisal's sections, shown once the draft states a value. */
export function AppraisalEditor({
  draft,
  onChange,
  errors,
  photos,
}: {
  draft: ReportDraft;
  onChange: (patch: Partial<ReportDraft>) => void;
  errors: DraftErrors;
  photos: SampleFile[];
}) {
  return (
    <>
      {errors.assignment ? (
        <Alert color="red" role="alert">
          {errors.assignment}
        </Alert>
      ) : null}
      <EditorSection
        title="Assignment"
        hint="For whom and for what the value is made, how the item was inspected, and the conditions it rests on."
      >
        <AssignmentFields
          value={draft.assignment}
          errors={errors}
          onChange={(assignment) => onChange({ assignment })}
        />
      </EditorSection>
      <EditorSection
        title="Comparable sales"
        hint={`Up to ${MAX_COMPARABLES} sales the value rests on, each price in the currency it was paid in.`}
      >
        <ComparablesTable
          rows={draft.comparables}
          onChange={(comparables) => onChange({ comparables })}
          photos={photos}
          currency={draft.valuation.currency}
          errors={errors}
        />
      </EditorSection>
      <EditorSection title="Re-valuation">
        <TextInput
          type="date"
          label="Re-valuation date (optional)"
          name="revalueBy"
          description="Leave empty for the lab's usual term after the effective date"
          min={draft.valuation.effectiveDate || undefined}
          value={draft.revalueBy}
          error={errors.revalueBy}
          onChange={(e) => onChange({ revalueBy: e.currentTarget.value })}
          maw={320}
        />
      </EditorSection>
      {draft.taxMode ? (
        <EditorSection
          title="Tax appraisal"
          hint="The client gives the item to a charity: these details are required and never shown publicly."
        >
          {errors.taxAppraisal ? (
            <Alert color="red" role="alert">
              {errors.taxAppraisal}
            </Alert>
          ) : null}
          <TaxFields
            value={draft.tax}
            onChange={(tax) => onChange({ tax })}
            errors={errors}
            currency={draft.valuation.currency}
          />
        </EditorSection>
      ) : null}
    </>
  );
}
