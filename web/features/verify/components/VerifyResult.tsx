import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  FileInput,
  Grid,
  Group,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { IconBan, IconCircleCheck, IconRosetteDiscountCheck } from '@tabler/icons-react';
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from 'react';
import type { DocumentCheckResponse, VerificationResponse } from '../../../../common/contracts/verification';
import {
  DEFAULT_LAB_NAME,
  LAB_FIXED_ADDRESS,
  LAB_FIXED_PHONE,
  LAB_HELP_EMAIL,
} from '../../../../common/domain/reports';
import { CATEGORIES, displaySampleId, optionLabel } from '../../../../common/domain/samples';
import { StatusBadge } from '../../../components/StatusBadge';
import { errorMessage } from '../../../lib/api';
import { formatLongDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useCheckDocument } from '../api';
import { CredentialDownload } from './OfflineProof';
import { ReportVerdicts } from './ReportVerdicts';

// What /verify-report shows for a verified code (web/features/verify/components/VerifyReportPage.tsx
// loads it with the answer): the authentic or revoked card, the PDF check and the credential.

// The analysis table's scroll container is Mantine's ScrollArea (20 KB gzip): loaded only when a
// report has analysis results, fetched beside the verification itself.
export const loadElementsTable = () => import('../../../components/ElementsTable');
const ElementsTable = lazy(() => loadElementsTable().then((m) => ({ default: m.ElementsTable })));

/** A verified report: its card, then the PDF check and the credential download. */
export function VerifyResult({ report }: { report: VerificationResponse }) {
  return (
    <>
      {report.revoked ? <RevokedCard report={report} /> : <AuthenticCard report={report} />}
      <DocumentCheck code={report.reportCode} />
      <CredentialDownload reportCode={report.reportCode} />
    </>
  );
}

const fullName = (p: { firstName: string | null; lastName: string | null } | null) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ') : '';
/** The analyst the PDF names: a reviewed report's author, otherwise the assigned staff member. */
const staffName = (r: VerificationResponse) => fullName(r.review?.analyzedBy ?? r.assignedStaff);

function ReportFacts({ report }: { report: VerificationResponse }) {
  const facts: [string, ReactNode][] = [
    ['Sample ID', displaySampleId(report.id)],
    ['Item Name', report.itemName],
    ['Category', optionLabel(CATEGORIES, report.category) || report.category],
    ['Status', <StatusBadge key="status" status={report.status} />],
    [
      'Verification Code',
      <Text key="code" span ff="monospace" fw={700}>
        {report.reportCode}
      </Text>,
    ],
    ['Revision', `Revision ${report.revision}, issued ${formatLongDate(report.issuedAt)}`],
  ];
  return (
    <Grid>
      {facts.map(([label, value]) => (
        <Grid.Col key={label} span={{ base: 12, sm: 6 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text component="div">{value}</Text>
        </Grid.Col>
      ))}
    </Grid>
  );
}

function RevokedCard({ report }: { report: VerificationResponse }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      style={{ borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 }}
    >
      <Stack gap="md">
        <Group gap="sm" role="status">
          <IconBan size={32} color="var(--mantine-color-red-7)" aria-hidden="true" />
          <div>
            <Title order={2} c="red.8">
              Report Revoked
            </Title>
            <Text>This report was withdrawn by the laboratory and must not be relied upon.</Text>
          </div>
        </Group>
        <Alert color="red" variant="light" title="Reason for withdrawal">
          <Text>{report.revokedReason}</Text>
          <Text size="sm" mt={4}>
            Revoked on {formatLongDate(report.revokedAt)}
          </Text>
        </Alert>
        <ReportFacts report={report} />
        <HelpLine />
      </Stack>
    </Card>
  );
}

function AuthenticCard({ report }: { report: VerificationResponse }) {
  const analyst = staffName(report);
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      style={{ borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 }}
    >
      <Stack gap="lg">
        <Group gap="sm" role="status">
          <IconRosetteDiscountCheck size={36} color="var(--mantine-color-teal-7)" aria-hidden="true" />
          <div>
            <Title order={2} c="teal.9">
              Authentic Report Verified
            </Title>
            <Text c="dimmed">This report was issued by {DEFAULT_LAB_NAME}.</Text>
          </div>
        </Group>
        <ReportFacts report={report} />

        <div>
          <Title order={3} size="h4" mb="sm">
            Timeline
          </Title>
          <Timeline active={report.reportGeneratedAt ? 2 : 1} bulletSize={18} lineWidth={2}>
            <Timeline.Item title="Submitted">
              <Text size="sm" c="dimmed">
                {formatLongDate(report.submissionDate)}
              </Text>
            </Timeline.Item>
            {report.reportGeneratedAt ? (
              <Timeline.Item title="Report Generated">
                <Text size="sm" c="dimmed">
                  {formatLongDate(report.reportGeneratedAt)}
                </Text>
              </Timeline.Item>
            ) : null}
            <Timeline.Item title="Last Updated">
              <Text size="sm" c="dimmed">
                {formatLongDate(report.lastUpdated)}
              </Text>
            </Timeline.Item>
          </Timeline>
        </div>

        <ReportVerdicts report={report} />

        {report.reportElements.length > 0 ? (
          <div>
            <Title order={3} size="h4" mb="sm">
              Analysis Results
            </Title>
            <Suspense fallback={<Text c="dimmed">Loading the analysis results...</Text>}>
              <ElementsTable
                rows={report.reportElements}
                minWidth={420}
                striped
                bordered
                cards
                renderQuality={(quality) => (
                  <Badge
                    variant={quality === 'Excellent' ? 'filled' : 'light'}
                    color={quality === 'Excellent' ? undefined : 'gray'}
                  >
                    {quality}
                  </Badge>
                )}
              />
            </Suspense>
          </div>
        ) : null}

        <div>
          <Title order={3} size="h4" mb="sm">
            Authentication Details
          </Title>
          <Stack gap={2}>
            <Text fw={600}>{DEFAULT_LAB_NAME}</Text>
            <Text size="sm">{LAB_FIXED_ADDRESS}</Text>
            <Text size="sm">{LAB_FIXED_PHONE}</Text>
            {analyst ? (
              <Text size="sm" mt={6}>
                <Text span fw={600}>
                  Analyzed By:
                </Text>{' '}
                {analyst}
              </Text>
            ) : null}
            {report.review ? (
              <Text size="sm">
                <Text span fw={600}>
                  Reviewed By:
                </Text>{' '}
                {fullName(report.review.reviewedBy)}
              </Text>
            ) : null}
          </Stack>
        </div>
        <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden="true" />}>
          This verification confirms that the report with this code was issued by our laboratory and that the
          details above match our records. To check a PDF you hold, upload it below: only a byte-identical
          copy of the current revision is the current report.
        </Alert>
        <HelpLine />
      </Stack>
    </Card>
  );
}

function HelpLine() {
  return (
    <Text size="sm" c="dimmed">
      Questions about this report? Contact us at{' '}
      <Anchor href={`mailto:${LAB_HELP_EMAIL}`}>{LAB_HELP_EMAIL}</Anchor>.
    </Text>
  );
}

function DocumentCheck({ code }: { code: string }) {
  const [file, setFile] = useState<File | null>(null);
  const check = useCheckDocument();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    check.mutate(
      { code, file },
      { onError: (err) => toast.error('Error', errorMessage(err, 'Failed to check the document')) },
    );
  };
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="form"
      onSubmit={submit}
      aria-label="Check a report PDF"
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Check a PDF copy
        </Title>
        <Text size="sm" c="dimmed">
          Upload the PDF you received to confirm it is exactly the document we issued under {code}.
        </Text>
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label="Report PDF"
            name="file"
            accept="application/pdf"
            placeholder="Choose a PDF file"
            value={file}
            onChange={(f) => {
              setFile(f);
              check.reset();
            }}
            clearable
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" variant={file ? 'filled' : 'light'} disabled={!file || check.isPending}>
            {check.isPending ? 'Checking...' : 'Check Document'}
          </Button>
        </Group>
        {check.data ? <DocumentResult result={check.data} /> : null}
      </Stack>
    </Card>
  );
}

function DocumentResult({ result }: { result: DocumentCheckResponse }) {
  if (result.result === 'current') {
    return (
      <Alert
        color={result.revoked ? 'red' : 'teal'}
        role="status"
        title={result.revoked ? 'Issued by us, but revoked' : 'Current document'}
      >
        This PDF is byte-identical to revision {result.revision} of report {result.reportCode}, issued{' '}
        {formatLongDate(result.issuedAt)}, the current revision.
        {result.revoked
          ? ` The report was revoked on ${formatLongDate(result.revokedAt)}: ${result.revokedReason}`
          : ''}
      </Alert>
    );
  }
  if (result.result === 'superseded') {
    return (
      <Alert color="yellow" role="status" title="Superseded document">
        This PDF is revision {result.revision} of report {result.reportCode}, issued{' '}
        {formatLongDate(result.issuedAt)}. It was superseded by revision {result.supersededByRevision} on{' '}
        {formatLongDate(result.supersededAt)}; ask for the current revision ({result.currentRevision}).
        {result.revoked
          ? ` The report was revoked on ${formatLongDate(result.revokedAt)}: ${result.revokedReason}`
          : ''}
      </Alert>
    );
  }
  return (
    <Alert color="red" role="alert" title="Not issued by us">
      This PDF does not match any document we issued under report {result.reportCode}. It may have been
      altered.
    </Alert>
  );
}
