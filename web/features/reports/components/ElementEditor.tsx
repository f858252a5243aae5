import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Grid,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  duplicateElementMessage,
  ELEMENT_REQUIRED_MESSAGE,
  elementAddedMessage,
  hasAtMostTwoDecimals,
  PERCENTAGE_DECIMALS_MESSAGE,
  TOTAL_OVER_100_MESSAGE,
} from '../../../../common/contracts/reports';
import { ELEMENT_QUALITIES, MAX_TOTAL_PERCENTAGE, PERCENTAGE_STEP } from '../../../../common/domain/reports';
import { ElementsTable } from '../../../components/ElementsTable';
import { toast } from '../../../lib/toast';
import { type DraftElement, draftKey } from '../report-draft';
import { NotesEditor } from '../../../components/NotesEditor';

const EMPTY_FORM = { element: '', percentage: 0 as number | string, purity: '', quality: '', notes: '' };

/** The 'Add Analysis Element' form and the 'Analysis Results' table, with the element checks of docs/product/limits.md. */
export function ElementEditor({
  rows,
  onChange,
  idPrefix,
}: {
  rows: DraftElement[];
  onChange: (rows: DraftElement[]) => void;
  idPrefix: string;
}) {
  const [form, setForm] = useState(EMPTY_FORM);
  const [error, setError] = useState<{ field: 'element' | 'percentage'; message: string } | null>(null);
  const total = rows.reduce((sum, r) => sum + Math.round(r.percentage * 100), 0) / 100;

  const refuse = (field: 'element' | 'percentage', message: string) => {
    setError({ field, message });
    toast.error('Validation Error', message);
  };

  const add = () => {
    const name = form.element.trim();
    const percentage =
      typeof form.percentage === 'number' ? form.percentage : Number.parseFloat(form.percentage);
    if (!name || !Number.isFinite(percentage) || percentage <= 0) {
      refuse(name ? 'percentage' : 'element', ELEMENT_REQUIRED_MESSAGE);
      return;
    }
    if (percentage > MAX_TOTAL_PERCENTAGE) return refuse('percentage', TOTAL_OVER_100_MESSAGE);
    if (!hasAtMostTwoDecimals(percentage)) return refuse('percentage', PERCENTAGE_DECIMALS_MESSAGE);
    if (rows.some((r) => r.element.trim().toLowerCase() === name.toLowerCase())) {
      return refuse('element', duplicateElementMessage(name));
    }
    if (Math.round(total * 100) + Math.round(percentage * 100) > MAX_TOTAL_PERCENTAGE * 100) {
      return refuse('percentage', TOTAL_OVER_100_MESSAGE);
    }
    onChange([
      ...rows,
      {
        key: draftKey(),
        element: name,
        percentage,
        purity: form.purity,
        quality: form.quality,
        notes: form.notes,
      },
    ]);
    setError(null);
    setForm(EMPTY_FORM);
    toast.success('Element Added', elementAddedMessage(name));
  };

  return (
    <Stack gap="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Add Analysis Element
        </Title>
        <Grid>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              id={`${idPrefix}-element`}
              label="Element Name"
              name="element"
              placeholder="e.g. Gold"
              value={form.element}
              error={error?.field === 'element' ? error.message : undefined}
              onChange={(e) => setForm({ ...form, element: e.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput
              id={`${idPrefix}-percentage`}
              label="Percentage"
              name="percentage"
              min={0}
              max={100}
              step={PERCENTAGE_STEP}
              decimalScale={2}
              value={form.percentage}
              error={error?.field === 'percentage' ? error.message : undefined}
              onChange={(v) => setForm({ ...form, percentage: v })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              id={`${idPrefix}-purity`}
              label="Purity"
              name="purity"
              placeholder="e.g. 18k, 925"
              value={form.purity}
              onChange={(e) => setForm({ ...form, purity: e.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              id={`${idPrefix}-quality`}
              label="Quality"
              name="quality"
              placeholder="Select quality"
              clearable
              data={[...ELEMENT_QUALITIES]}
              value={form.quality || null}
              onChange={(v) => setForm({ ...form, quality: v ?? '' })}
            />
          </Grid.Col>
        </Grid>
        <NotesEditor value={form.notes} onChange={(notes) => setForm((f) => ({ ...f, notes }))} />
        <div>
          <Button leftSection={<IconPlus size={16} aria-hidden="true" />} variant="light" onClick={add}>
            Add Element
          </Button>
        </div>
      </Stack>

      <Stack gap="xs">
        <Title order={3} size="h4">
          Analysis Results
        </Title>
        {rows.length === 0 ? (
          <Text c="dimmed" size="sm">
            No elements added yet.
          </Text>
        ) : (
          <ElementsTable
            rows={rows}
            minWidth={560}
            striped
            compact
            rowKey={(r) => r.key}
            renderQuality={(quality) => (
              <Badge
                variant="light"
                style={{ overflow: 'visible' }}
                styles={{ root: { textTransform: 'none' } }}
              >
                {quality}
              </Badge>
            )}
            extraColumns={[
              {
                header: 'Notes',
                cell: (r) =>
                  r.notes ? (
                    <Text size="xs" lineClamp={2}>
                      {stripTags(r.notes)}
                    </Text>
                  ) : (
                    '—'
                  ),
              },
              {
                header: <VisuallyHidden>Actions</VisuallyHidden>,
                cell: (r) => (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${r.element}`}
                    onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                ),
              },
            ]}
          />
        )}
        <Text size="sm" c={total > MAX_TOTAL_PERCENTAGE ? 'red' : 'dimmed'}>
          Total: {total.toFixed(2)}%
        </Text>
        {error ? (
          <Alert color="red" role="alert" variant="light" p="xs">
            {error.message}
          </Alert>
        ) : null}
      </Stack>
    </Stack>
  );
}

/** Notes preview in the table: the text only (the HTML is rendered on the PDF). */
function stripTags(html: string): string {
  const doc = new DOMParser().parseFromString(
    html.replace(/<\/(p|h1|h2|li)>|<br\s*\/?>/gi, '$& '),
    'text/html',
  );
  return doc.body.textContent ?? '';
}
