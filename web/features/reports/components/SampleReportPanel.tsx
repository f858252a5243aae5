import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconBan, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isLabRole } from '../../../../common/domain/roles';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { SampleReportPanelProps } from '../../../components/slots';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useReportDownload } from '../../../lib/reports';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useRevokeReport } from '../api';
import { ReportEditorForm } from './ReportEditorForm';
import { useReportEditor } from './use-report-editor';

/** The report editor on the sample detail page (staff/admin), with the admin's Revoke action. */
export function SampleReportPanel(props: SampleReportPanelProps) {
  const { user } = useSession();
  return isLabRole(user?.role) ? <ReportPanelBody {...props} isAdmin={user?.role === 'admin'} /> : null;
}

function ReportPanelBody({ sampleId, reportCode, isAdmin }: SampleReportPanelProps & { isAdmin: boolean }) {
  const downloadReport = useReportDownload();
  const sample = useQuery(sampleDetailQuery(sampleId));
  const code = sample.data?.reportCode ?? reportCode;
  const [revokeOpen, setRevokeOpen] = useState(false);
  // Filled afresh when a revision is issued (here or elsewhere), not on every refetch: a refocus
  // or a photo's copies arriving must not wipe what the expert is typing. Issuing and revoking
  // invalidate the sample's cache entry (web/lib/query-keys.ts), which reloads the page around it.
  const editor = useReportEditor(
    sampleId,
    sample.data,
    sample.data ? `${sample.data.id}:${sample.data.reportGeneratedAt ?? ''}` : null,
  );

  const revokedAt = sample.data?.reportRevokedAt ?? null;

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h3">
              Report
            </Title>
            {code ? (
              <Text size="sm" c="dimmed">
                Report code{' '}
                <Text span ff="monospace" fw={600} c="dark">
                  {code}
                </Text>
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                No report issued yet.
              </Text>
            )}
          </div>
          {code ? (
            <Group gap="xs">
              <Button
                variant="outline"
                size="xs"
                leftSection={<IconDownload size={14} aria-hidden="true" />}
                onClick={() => downloadReport(code)}
              >
                Download PDF
              </Button>
              {isAdmin && !revokedAt ? (
                <Button
                  color="red"
                  variant="light"
                  size="xs"
                  leftSection={<IconBan size={14} aria-hidden="true" />}
                  onClick={() => setRevokeOpen(true)}
                >
                  Revoke
                </Button>
              ) : null}
            </Group>
          ) : null}
        </Group>
        {revokedAt ? (
          <Alert color="red" role="status" title="Report revoked">
            Revoked on {formatDateTime(revokedAt)}. Reason: {sample.data?.reportRevokedReason}
          </Alert>
        ) : null}
        {sample.isPending ? (
          <Group role="status">
            <Loader size="sm" />
            <Text>Loading report...</Text>
          </Group>
        ) : sample.isError ? (
          <Alert color="red" role="alert" title="Error">
            {errorMessage(sample.error, 'Failed to fetch sample details')}
          </Alert>
        ) : (
          <ReportEditorForm
            sample={sample.data}
            editor={editor}
            idPrefix={`panel-${sampleId}`}
            canIssue={!revokedAt}
          />
        )}
      </Stack>
      {code ? (
        <RevokeDialog
          opened={revokeOpen}
          reportCode={code}
          onClose={() => setRevokeOpen(false)}
          onRevoked={() => setRevokeOpen(false)}
        />
      ) : null}
    </Card>
  );
}

function RevokeDialog({
  opened,
  reportCode,
  onClose,
  onRevoked,
}: {
  opened: boolean;
  reportCode: string;
  onClose: () => void;
  onRevoked: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const revoke = useRevokeReport();
  const submit = () => {
    if (!reason.trim()) {
      setError('A reason is required');
      return;
    }
    revoke.mutate(
      { reportCode, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success('Report revoked', `Report ${reportCode} now verifies as revoked.`);
          setReason('');
          setError(null);
          onRevoked();
        },
        onError: (err) =>
          toast.error('Error', `Failed to revoke report: ${errorMessage(err, 'Failed to revoke report')}`),
      },
    );
  };
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={`Revoke report ${reportCode}`}
      centered={false}
      confirmLabel="Revoke Report"
      loading={revoke.isPending}
      onConfirm={submit}
      reason={{ label: 'Reason', name: 'reason', value: reason, error, onChange: setReason }}
    >
      A revoked report stays on record, but anyone who verifies the code is told plainly that it was
      withdrawn, with your reason.
    </ConfirmDialog>
  );
}
