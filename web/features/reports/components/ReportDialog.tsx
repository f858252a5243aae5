import { Alert, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { CATEGORIES, displaySampleId, optionLabel } from '../../../../common/domain/samples';
import type { ReportDialogProps } from '../../../components/slots';
import { errorMessage } from '../../../lib/api';
import { useReturnFocus } from '../../../lib/return-focus';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { ReportEditorForm } from './ReportEditorForm';
import { useReportEditor } from './use-report-editor';

/** The staff 'Generate Analysis Report' dialog (implements ReportDialogSlot). */
export function ReportDialog({ sampleId, opened, onClose }: ReportDialogProps) {
  const sample = useQuery({ ...sampleDetailQuery(sampleId), enabled: opened });
  const editor = useReportEditor(sampleId, sample.data, sample.data ? String(sample.data.id) : null);
  const returnFocus = useReturnFocus();
  // At phone width the dialog takes the whole screen; its body scrolls under a fixed title.
  const narrow = useMediaQuery('(max-width: 36em)');

  const close = () => {
    editor.reset();
    onClose();
    returnFocus();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Generate Analysis Report"
      size="xl"
      centered={false}
      fullScreen={narrow}
    >
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
          </Stack>
          {/* The issue mutation invalidates the opener's lists (web/lib/query-keys.ts). */}
          <ReportEditorForm
            sample={sample.data}
            editor={editor}
            idPrefix={`dialog-${sampleId}`}
            onIssued={close}
            onCancel={close}
          />
        </Stack>
      )}
    </Modal>
  );
}
