import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileCertificate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage, fetchBlob, saveBlob } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import type { CollectionScheduleProps } from '../../../components/slots';
import { collectionScheduleQuery, useIssueSchedule } from '../api';

/**
 * The collection page's Schedule card (docs/product/schedules.md): the current schedule with its
 * download and verification link; for staff and admins the "Issue schedule" button, enabled once
 * every item has an issued report.
 */
export function CollectionSchedule({ collectionId, progress }: CollectionScheduleProps) {
  const { user } = useSession();
  const query = useQuery(collectionScheduleQuery(collectionId));
  const issue = useIssueSchedule(collectionId);
  const [downloading, setDownloading] = useState(false);
  const runsTheLab = user?.role === 'staff' || user?.role === 'admin';
  const ready = progress.total > 0 && progress.reported === progress.total;

  const onIssue = () =>
    issue.mutate(undefined, {
      onSuccess: (s) =>
        toast.success('Schedule issued', `Schedule ${s.scheduleCode} lists ${s.itemCount} item(s).`),
      onError: (err) => toast.error('Error', errorMessage(err, 'The schedule could not be issued.')),
    });
  const onDownload = async (code: string) => {
    setDownloading(true);
    try {
      saveBlob(await fetchBlob(`/api/collections/${collectionId}/schedule/pdf`), `Schedule-${code}.pdf`);
    } catch (err) {
      toast.error('Error', errorMessage(err, 'The schedule could not be downloaded.'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="schedule-title" mb="lg">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h3" id="schedule-title">
            Schedule
          </Title>
          {runsTheLab && (
            <Button
              leftSection={<IconFileCertificate size={16} aria-hidden="true" />}
              onClick={onIssue}
              loading={issue.isPending}
              disabled={!ready}
            >
              Issue schedule
            </Button>
          )}
        </Group>
        {query.isPending ? (
          <Group gap="sm" role="status">
            <Loader size="xs" aria-hidden="true" />
            <Text size="sm">Loading schedule...</Text>
          </Group>
        ) : query.isError ? (
          <Alert color="red" title="Error" role="alert">
            {errorMessage(query.error, 'The schedule could not be loaded.')}
          </Alert>
        ) : query.data ? (
          <Group justify="space-between" wrap="wrap" gap="sm" data-schedule-code={query.data.scheduleCode}>
            <div>
              <Text fw={600}>
                Schedule <span style={{ fontFamily: 'monospace' }}>{query.data.scheduleCode}</span>
              </Text>
              <Text size="sm" c="dimmed">
                Issued {formatDate(query.data.issuedAt)} · {query.data.itemCount} item
                {query.data.itemCount === 1 ? '' : 's'} ·{' '}
                <Anchor component={Link} to={`/verify-schedule?code=${query.data.scheduleCode}`}>
                  Verify
                </Anchor>
              </Text>
            </div>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              loading={downloading}
              onClick={() => onDownload(query.data?.scheduleCode ?? '')}
            >
              Download schedule
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No schedule yet.{' '}
            {ready
              ? runsTheLab
                ? 'Every item has its report: the schedule can be issued.'
                : 'Every item has its report: the lab can now issue the schedule.'
              : 'The lab issues the schedule once every item has an issued report.'}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
