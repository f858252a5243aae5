import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Grid,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import {
  duplicateElementMessage,
  ELEMENT_REQUIRED_MESSAGE,
  elementAddedMessage,
  elementUpdatedMessage,
  hasAtMostTwoDecimals,
  PERCENTAGE_DECIMALS_MESSAGE,
  TOTAL_OVER_100_MESSAGE,
} from '../../../../common/contracts/reports';
import { ELEMENT_QUALITIES, MAX_TOTAL_PERCENTAGE, PERCENTAGE_STEP } from '../../../../common/domain/reports';
import { ElementsTable } from '../../../components/ElementsTable';
import { focusInView } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { type DraftElement, draftKey } from '../report-draft';
import { NotesEditor } from '../../../components/NotesEditor';
import { RichParagraphs } from '../../../components/RichParagraphs';

const EMPTY_FORM = { element: '', percentage: 0 as number | string, purity: '', quality: '', notes: '' };

/**
 * The 'Add Analysis Element' form and the 'Analysis Results' table, with the element checks of
 * docs/product/limits.md. A row's Edit loads it into the form, to be saved in its place under the same checks.
 */
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
  // The row being edited in place (its key), or null while the form adds a new one.
  const [editing, setEditing] = useState<string | null>(null);
  // Remounts the notes editor when a row's notes are loaded into it (it reads its content once).
  const [formLoad, setFormLoad] = useState(0);
  const total = rows.reduce((sum, r) => sum + Math.round(r.percentage * 100), 0) / 100;
  const editedRow = editing ? rows.find((r) => r.key === editing) : undefined;

  const refuse = (field: 'element' | 'percentage', message: string) => {
    setError({ field, message });
    toast.error('Validation Error', message);
  };

  /** The form's row, checked like every row (docs/product/limits.md); the row being edited is left out of the checks. */
  const save = () => {
    const name = form.element.trim();
    const percentage =
      typeof form.percentage === 'number' ? form.percentage : Number.parseFloat(form.percentage);
    if (!name || !Number.isFinite(percentage) || percentage <= 0) {
      refuse(name ? 'percentage' : 'element', ELEMENT_REQUIRED_MESSAGE);
      return;
    }
    if (percentage > MAX_TOTAL_PERCENTAGE) return refuse('percentage', TOTAL_OVER_100_MESSAGE);
    if (!hasAtMostTwoDecimals(percentage)) return refuse('percentage', PERCENTAGE_DECIMALS_MESSAGE);
    const others = rows.filter((r) => r.key !== editedRow?.key);
    if (others.some((r) => r.element.trim().toLowerCase() === name.toLowerCase())) {
      return refuse('element', duplicateElementMessage(name));
    }
    const othersTotal = others.reduce((sum, r) => sum + Math.round(r.percentage * 100), 0);
    if (othersTotal + Math.round(percentage * 100) > MAX_TOTAL_PERCENTAGE * 100) {
      return refuse('percentage', TOTAL_OVER_100_MESSAGE);
    }
    const row = {
      key: editedRow?.key ?? draftKey(),
      element: name,
      percentage,
      purity: form.purity,
      quality: form.quality,
      notes: form.notes,
    };
    // An edited row keeps its place in the table.
    onChange(editedRow ? rows.map((r) => (r.key === editedRow.key ? row : r)) : [...rows, row]);
    setError(null);
    setForm(EMPTY_FORM);
    if (editedRow) {
      setEditing(null);
      setFormLoad((n) => n + 1);
      toast.success('Element Updated', elementUpdatedMessage(name));
      // Back to the row's own Edit button once the table has its new name.
      setTimeout(() => document.getElementById(`${idPrefix}-edit-${row.key}`)?.focus(), 0);
    } else toast.success('Element Added', elementAddedMessage(name));
  };

  /** Loads a row into the form above the table, to be changed and saved in its place. */
  const startEditing = (row: DraftElement) => {
    setEditing(row.key);
    setForm({
      element: row.element,
      percentage: row.percentage,
      purity: row.purity,
      quality: row.quality,
      notes: row.notes,
    });
    setError(null);
    setFormLoad((n) => n + 1);
    setTimeout(() => focusInView(document.getElementById(`${idPrefix}-element`)), 0);
  };

  const cancelEditing = () => {
    const key = editing;
    setEditing(null);
    setForm(EMPTY_FORM);
    setError(null);
    setFormLoad((n) => n + 1);
    setTimeout(() => document.getElementById(`${idPrefix}-edit-${key}`)?.focus(), 0);
  };

  return (
    <Stack gap="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {editedRow ? `Edit ${editedRow.element}` : 'Add Analysis Element'}
        </Title>
        <Text size="sm" c="gray.7">
          Quality rates one material on four steps (Excellent, Good, Fair, Poor); the item&apos;s condition
          grade above is separate.
        </Text>
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
        <NotesEditor
          key={formLoad}
          value={form.notes}
          onChange={(notes) => setForm((f) => ({ ...f, notes }))}
        />
        {editedRow ? (
          <Group gap="sm">
            <Button leftSection={<IconCheck size={16} aria-hidden="true" />} variant="light" onClick={save}>
              Save Element
            </Button>
            <Button variant="default" onClick={cancelEditing}>
              Cancel Editing
            </Button>
          </Group>
        ) : (
          <div>
            <Button leftSection={<IconPlus size={16} aria-hidden="true" />} variant="light" onClick={save}>
              Add Element
            </Button>
          </div>
        )}
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
                cell: (r) => (r.notes ? <RichParagraphs html={r.notes} size="xs" /> : '—'),
              },
              {
                header: <VisuallyHidden>Actions</VisuallyHidden>,
                cell: (r) => (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      id={`${idPrefix}-edit-${r.key}`}
                      variant="subtle"
                      aria-label={`Edit ${r.element}`}
                      aria-pressed={editing === r.key}
                      onClick={() => startEditing(r)}
                    >
                      <IconPencil size={16} aria-hidden="true" />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${r.element}`}
                      // The row being edited is saved or cancelled first.
                      disabled={editing === r.key}
                      onClick={() => onChange(rows.filter((x) => x.key !== r.key))}
                    >
                      <IconTrash size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Group>
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
