import { Alert, Button, Checkbox, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CATEGORIES, displaySampleId, normalizeStatus, optionLabel } from '../../../../common/domain/samples';
import { ProtectedPhoto } from '../../../components/ProtectedPhoto';
import type { ReportDialogProps } from '../../../components/slots';
import { errorMessage } from '../../../lib/api';
import { useReturnFocus } from '../../../lib/return-focus';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { type DraftElement, draftKey, ElementEditor } from './ElementEditor';
import { sameAsIssued, UnchangedWarning } from './UnchangedWarning';
import { useGenerateReport } from './use-generate-report';

/** Existing elements become editable draft rows (docs/product/reports-and-verification.md: the dialog opens with the current elements). */
export function toDraftRows(
  elements: {
    element: string;
    percentage: number | string;
    purity: string | null;
    quality: string | null;
    notes: string | null;
  }[],
): DraftElement[] {
  return elements.map((e) => ({
    key: draftKey(),
    element: e.element,
    percentage: Number(e.percentage),
    purity: e.purity ?? '',
    quality: e.quality ?? '',
    notes: e.notes ?? '',
  }));
}

/** Offered beside Generate: a public report next to a sample still in Review confuses the client. */
export function CompleteOption({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <Checkbox
      name="markCompleted"
      label="Also mark the sample Completed"
      description="The client then sees the report and the Completed status together."
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

/** The staff 'Generate Analysis Report' dialog (implements ReportDialogSlot). */
export function ReportDialog({ sampleId, opened, onClose }: ReportDialogProps) {
  const sample = useQuery({ ...sampleDetailQuery(sampleId), enabled: opened });
  const [rows, setRows] = useState<DraftElement[]>([]);
  const [loadedFor, setLoadedFor] = useState<number | null>(null);
  const [complete, setComplete] = useState(false);
  const [warnUnchanged, setWarnUnchanged] = useState(false);
  const { generate, isPending, formError } = useGenerateReport(sampleId, Boolean(sample.data?.reportCode));
  const returnFocus = useReturnFocus();

  useEffect(() => {
    if (sample.data && loadedFor !== sample.data.id) {
      setRows(toDraftRows(sample.data.reportElements));
      setLoadedFor(sample.data.id);
    }
  }, [sample.data, loadedFor]);

  const close = () => {
    setRows([]);
    setLoadedFor(null);
    setComplete(false);
    setWarnUnchanged(false);
    onClose();
    returnFocus();
  };

  const onGenerate = async (confirmed = false) => {
    const issued = sample.data;
    if (!confirmed && issued?.reportCode && sameAsIssued(rows, issued.reportElements)) {
      setWarnUnchanged(true);
      return;
    }
    setWarnUnchanged(false);
    // The issue mutation invalidates the opener's lists (web/lib/query-keys.ts).
    if (await generate(rows, { markCompleted: complete })) close();
  };

  return (
    <Modal opened={opened} onClose={close} title="Generate Analysis Report" size="xl" centered={false}>
      {sample.isPending ? (
        <Group justify="center" py="xl" role="status">
          <Loader size="sm" />
          <Text>Loading sample...</Text>
        </Group>
      ) : sample.isError ? (
        <Alert color="red" role="alert" title="Error">
          {errorMessage(sample.error, 'Failed to fetch sample details')}
        </Alert>
      ) : (
        <Stack gap="md">
          <Stack gap={4} data-testid="report-sample-details">
            <Text fw={700} size="lg">
              {sample.data.itemName}{' '}
              <Text span c="dimmed" fw={400} size="sm">
                {displaySampleId(sample.data.id)}
              </Text>
            </Text>
            <Text size="sm">{sample.data.description}</Text>
            <Text size="sm">
              <Text span fw={600}>
                Category:
              </Text>{' '}
              {optionLabel(CATEGORIES, sample.data.category) || sample.data.category}
            </Text>
            {sample.data.reportCode ? (
              <Text size="sm">
                <Text span fw={600}>
                  Report Code:
                </Text>{' '}
                <Text span ff="monospace">
                  {sample.data.reportCode}
                </Text>
              </Text>
            ) : null}
            {sample.data.files.some((f) => f.fileCategory === 'photo') && (
              <Group gap="xs" mt={4} aria-label="Photos" role="group">
                {sample.data.files
                  .filter((f) => f.fileCategory === 'photo')
                  .map((f) => (
                    <ProtectedPhoto
                      key={f.id}
                      url={f.thumbnailUrl}
                      processing={f.processing}
                      alt={f.originalName}
                      width={96}
                      height={96}
                    />
                  ))}
              </Group>
            )}
          </Stack>
          <Divider />
          <ElementEditor rows={rows} onChange={setRows} idPrefix={`dialog-${sampleId}`} />
          {normalizeStatus(sample.data.status) !== 'completed' ? (
            <CompleteOption checked={complete} onChange={setComplete} />
          ) : null}
          {warnUnchanged && sample.data.reportCode ? (
            <UnchangedWarning
              code={sample.data.reportCode}
              onConfirm={() => void onGenerate(true)}
              onCancel={() => setWarnUnchanged(false)}
            />
          ) : null}
          {formError ? (
            <Alert color="red" role="alert" variant="light" p="xs">
              {formError}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              leftSection={<IconFileTypePdf size={16} aria-hidden="true" />}
              loading={isPending}
              onClick={() => void onGenerate()}
            >
              Generate PDF Report
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
