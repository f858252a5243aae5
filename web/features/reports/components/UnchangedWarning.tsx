import { Alert, Button, Group, Text } from '@mantine/core';
import { type DraftElement, elementsToSend } from './ElementEditor';

type Existing = {
  element: string;
  percentage: number | string;
  purity: string | null;
  quality: string | null;
  notes: string | null;
};

const key = (e: {
  element: string;
  percentage: number | string;
  purity: string | null;
  quality: string | null;
  notes: string | null;
}) =>
  JSON.stringify([
    e.element.trim().toLowerCase(),
    Number(e.percentage).toFixed(2),
    e.purity ?? '',
    e.quality ?? '',
    e.notes ?? '',
  ]);

/** True when the rows to send are the elements the issued report already holds (any order). */
export function sameAsIssued(rows: DraftElement[], existing: readonly Existing[]): boolean {
  const next = elementsToSend(rows).map(key).sort();
  const before = existing.map(key).sort();
  return next.length === before.length && next.every((k, i) => k === before[i]);
}

/**
 * Issuing again with nothing changed would quietly replace the PDF the client already holds with a
 * new revision; the lab member confirms first.
 */
export function UnchangedWarning({
  code,
  onConfirm,
  onCancel,
}: {
  code: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Alert color="yellow" role="alert" title="Nothing has changed">
      <Text size="sm" mb="sm">
        {`Report ${code} already holds these elements. Generating again issues a new revision that replaces the PDF the client has.`}
      </Text>
      <Group gap="xs">
        <Button size="xs" color="yellow" onClick={onConfirm}>
          Generate anyway
        </Button>
        <Button size="xs" variant="default" onClick={onCancel}>
          Keep the current report
        </Button>
      </Group>
    </Alert>
  );
}
