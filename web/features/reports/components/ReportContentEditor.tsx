import {
  Button,
  Divider,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type ReactNode, useId } from 'react';
import type { SampleFile } from '../../../../common/contracts/samples';
import { isCurrencyCode, minorDigits, parseAmount } from '../../../../common/domain/money';
import {
  AUTHENTICITY_VERDICTS,
  COMMON_CURRENCIES,
  CONDITION_GRADES,
  formatValueRange,
  IDENTIFICATION_FIELDS,
  latestEffectiveDate,
  VALUE_TYPES,
} from '../../../../common/domain/valuation';
import { type DraftErrors, type ReportDraft, type ValuationDraft, valuationStarted } from '../report-draft';
import { AppraisalEditor } from './AppraisalEditor';
import { NotesEditor } from '../../../components/NotesEditor';
import { PhotoPicker } from './PhotoPicker';

// The valuation report's sections, in the order the PDF shows them (docs/product/valuation-report.md).
// The element table is drawn by ElementEditor, between Valuation and Summary.

/** Every currency code the server accepts, the usual ones first. */
const CURRENCY_OPTIONS = (() => {
  const all = (Intl.supportedValuesOf?.('currency') ?? []).filter(
    (c) => isCurrencyCode(c) && !(COMMON_CURRENCIES as readonly string[]).includes(c),
  );
  return [
    { group: 'Common', items: [...COMMON_CURRENCIES] },
    { group: 'All currencies', items: all },
  ];
})();

export function EditorSection({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Stack component="section" gap="sm" aria-labelledby={id}>
      <Divider />
      <div>
        <Title order={3} size="h4" id={id}>
          {title}
        </Title>
        {hint ? (
          <Text size="sm" c="gray.7">
            {hint}
          </Text>
        ) : null}
      </div>
      {children}
    </Stack>
  );
}

/** A verdict or grade as radio choices; nothing chosen means the report does not state it. */
function Choice({
  label,
  name,
  options,
  value,
  error,
  onChange,
}: {
  label: string;
  name: string;
  options: readonly { value: string; label: string }[];
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  return (
    <Stack gap={4}>
      <Radio.Group label={label} name={name} value={value || null} onChange={onChange} error={error}>
        <Group gap="sm" mt={6}>
          {options.map((o) => (
            <Radio.Card key={o.value} value={o.value} radius="md" p="xs" w="auto" withBorder>
              <Group gap={8} wrap="nowrap">
                <Radio.Indicator />
                <Text size="sm">{o.label}</Text>
              </Group>
            </Radio.Card>
          ))}
        </Group>
      </Radio.Group>
      {value ? (
        <div>
          <Button variant="subtle" size="compact-xs" onClick={() => onChange('')}>
            Clear {label.toLowerCase()}
          </Button>
        </div>
      ) : null}
    </Stack>
  );
}

/** The amount as it will read on the report, once it is a valid amount in the currency. */
function valuePreview(v: ValuationDraft): string | null {
  if (!isCurrencyCode(v.currency) || !v.high.trim()) return null;
  const high = parseAmount(v.high, v.currency);
  const low = v.low.trim() ? parseAmount(v.low, v.currency) : null;
  if (!high.ok || (low && !low.ok)) return null;
  return formatValueRange({ low: low?.ok ? low.minor : null, high: high.minor, currency: v.currency });
}

function ValuationFields({
  value,
  onChange,
  errors,
}: {
  value: ValuationDraft;
  onChange: (v: ValuationDraft) => void;
  errors: DraftErrors;
}) {
  const set = (patch: Partial<ValuationDraft>) => onChange({ ...value, ...patch });
  const known = isCurrencyCode(value.currency);
  const digits = known ? minorDigits(value.currency) : 2;
  const example = digits === 0 ? '18000' : `18000.${'0'.repeat(digits)}`;
  const decimals = digits === 0 ? `${value.currency} has no decimals` : `Up to ${digits} decimals`;
  const unit = (
    <Text size="xs" fw={600} c="gray.7" aria-hidden="true">
      {value.currency}
    </Text>
  );
  const preview = valuePreview(value);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Currency"
          name="valuation.currency"
          searchable
          allowDeselect={false}
          data={CURRENCY_OPTIONS}
          value={value.currency || null}
          error={errors['valuation.currency']}
          onChange={(c) => set({ currency: c ?? '' })}
          nothingFoundMessage="No such currency"
        />
        <Select
          label="Value type"
          name="valuation.valueType"
          placeholder="Choose the kind of value"
          data={VALUE_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          value={value.valueType || null}
          error={errors['valuation.valueType']}
          onChange={(t) => set({ valueType: t ?? '' })}
        />
        <TextInput
          label={`Low value (${value.currency})`}
          name="valuation.low"
          description="Only for a range; leave empty for a single value"
          inputMode="decimal"
          placeholder="Optional"
          rightSection={unit}
          rightSectionWidth={48}
          value={value.low}
          error={errors['valuation.low']}
          onChange={(e) => set({ low: e.currentTarget.value })}
        />
        <TextInput
          label={`High value (${value.currency})`}
          name="valuation.high"
          description={`The value, or the top of the range. ${decimals}.`}
          inputMode="decimal"
          placeholder={example}
          rightSection={unit}
          rightSectionWidth={48}
          value={value.high}
          error={errors['valuation.high']}
          onChange={(e) => set({ high: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label="Effective date"
          name="valuation.effectiveDate"
          description="The date the value is stated for; not in the future"
          max={latestEffectiveDate()}
          value={value.effectiveDate}
          error={errors['valuation.effectiveDate']}
          onChange={(e) => set({ effectiveDate: e.currentTarget.value })}
        />
        <Stack gap={2} justify="flex-end">
          {preview ? (
            <>
              <Text size="sm" c="gray.7">
                The report will state
              </Text>
              <Text fw={700} data-testid="valuation-preview">
                {preview}
              </Text>
            </>
          ) : null}
        </Stack>
      </SimpleGrid>
      <NotesEditor
        label="Basis of valuation"
        name="valuation.basis"
        value={value.basis}
        onChange={(basis) => set({ basis })}
      />
    </Stack>
  );
}

type Opinion = {
  title: string;
  label: string;
  options: readonly { value: string; label: string }[];
  choice: { key: 'verdict' | 'grade'; path: string };
  notesLabel: string;
  notes: { key: 'rationale' | 'conditionNotes'; path: string };
  hint?: string;
};

/** The two opinions: a choice and its rich-text reasons, each kept in two draft fields. */
const OPINIONS: readonly Opinion[] = [
  {
    title: 'Authenticity',
    label: 'Verdict',
    options: AUTHENTICITY_VERDICTS,
    choice: { key: 'verdict', path: 'authenticity.verdict' },
    notesLabel: 'Rationale',
    notes: { key: 'rationale', path: 'authenticity.rationale' },
  },
  {
    title: 'Condition',
    // Two scales meet on one report: say which is which (an element's quality is its own).
    hint: "The whole item's state, on six steps from Mint to Poor. An analysis element's Quality, below, rates one material on its own four steps (Excellent, Good, Fair, Poor).",
    label: 'Grade',
    options: CONDITION_GRADES,
    choice: { key: 'grade', path: 'condition.grade' },
    notesLabel: 'Condition notes',
    notes: { key: 'conditionNotes', path: 'condition.notes' },
  },
];

/**
 * The report's identification, photos, verdicts, value and summary, laid out so an expert fills
 * them in one sitting. `after` goes between Valuation and Summary (the element table).
 */
export function ReportContentEditor({
  draft,
  onChange,
  errors,
  files,
  after,
}: {
  draft: ReportDraft;
  onChange: (patch: Partial<ReportDraft>) => void;
  errors: DraftErrors;
  files: SampleFile[];
  after?: ReactNode;
}) {
  const photos = files.filter((f) => f.fileCategory === 'photo');
  return (
    <Stack gap="lg">
      <EditorSection
        title="Identification"
        hint="What the object is. Leave a field empty when it is not known."
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {IDENTIFICATION_FIELDS.map(({ field, label }) => (
            <TextInput
              key={field}
              label={label}
              name={`identification.${field}`}
              value={draft.identification[field]}
              error={errors[`identification.${field}`]}
              onChange={(e) =>
                onChange({ identification: { ...draft.identification, [field]: e.currentTarget.value } })
              }
            />
          ))}
        </SimpleGrid>
      </EditorSection>

      <EditorSection title="Photographs">
        <PhotoPicker
          photos={photos}
          chosen={draft.photoIds}
          error={errors.photoIds ?? Object.entries(errors).find(([k]) => k.startsWith('photoIds.'))?.[1]}
          onChange={(photoIds) => onChange({ photoIds })}
        />
      </EditorSection>

      {OPINIONS.map((o) => (
        <EditorSection key={o.title} title={o.title} hint={o.hint}>
          <Choice
            label={o.label}
            name={o.choice.path}
            options={o.options}
            value={draft[o.choice.key]}
            error={errors[o.choice.path]}
            onChange={(v) => onChange({ [o.choice.key]: v })}
          />
          <NotesEditor
            label={o.notesLabel}
            name={o.notes.path}
            value={draft[o.notes.key]}
            onChange={(v) => onChange({ [o.notes.key]: v })}
          />
        </EditorSection>
      ))}

      <EditorSection title="Valuation" hint="Leave it empty when the report states no value.">
        <ValuationFields
          value={draft.valuation}
          errors={errors}
          onChange={(valuation) => onChange({ valuation })}
        />
      </EditorSection>

      {valuationStarted(draft.valuation) ? (
        <AppraisalEditor draft={draft} onChange={onChange} errors={errors} photos={photos} />
      ) : null}

      {after}

      <EditorSection title="Summary">
        <NotesEditor
          label="Summary"
          name="summary"
          value={draft.summary}
          onChange={(summary) => onChange({ summary })}
        />
      </EditorSection>
    </Stack>
  );
}
