import { Alert, Button, Group, Text } from '@mantine/core';

/**
 * Issuing again with nothing changed (the same elements, verdicts, value, texts and photos:
 * `sameAsIssued` in ../report-draft.ts) would quietly replace the PDF the client already holds
 * with a new revision; the lab member confirms first.
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
        {`Report ${code} already states exactly this. Generating again issues a new revision that replaces the PDF the client has.`}
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
