import {
  Alert,
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconDownload,
  IconEye,
  IconFileText,
  IconPhoto,
  IconShieldCheck,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { SampleDetail, SampleFile } from '../../../../common/contracts/samples';
import { dashboardPathForRole, isLabRole } from '../../../../common/domain/roles';
import {
  CATEGORIES,
  COUNTRIES,
  displaySampleId,
  normalizeStatus,
  optionLabel,
  PURPOSES,
  RELATIONSHIPS,
  SAMPLE_STATUS_LABELS,
  servicesText,
  VALUE_RANGES,
} from '../../../../common/domain/samples';
import { CredentialDownloadButton } from '../../../components/CredentialDownloadButton';
import { detailPageState } from '../../../components/DataState';
import { ElementsTable } from '../../../components/ElementsTable';
import { ReportContentCard } from '../../../components/ReportContentCard';
import type {
  SampleCustodyPanelSlot,
  SampleQuotePanelSlot,
  SampleReportPanelSlot,
} from '../../../components/slots';
import { StatusBadge, StatusIcon } from '../../../components/StatusBadge';
import { CustodyBadge } from '../../../components/CustodyBadge';
import { errorMessage, fetchBlob, openInNewTab } from '../../../lib/api';
import { formatDate, formatDateTime, formatKb } from '../../../lib/format';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { useReportDownload } from '../../../lib/reports';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { uploadPath } from '../api';
import { PhotoGallery } from './PhotoGallery';
import { ShareLinksCard, VerificationLogCard } from './ReportDisclosure';

const FETCH_FAILED = 'Failed to fetch sample details';

const fullName = (p: { firstName: string | null; lastName: string | null } | null) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ') : '';

/** A label and its value; empty values are left out unless `always`. */
function Field({ label, value, always }: { label: string; value: ReactNode; always?: boolean }) {
  if (!always && (value === null || value === undefined || value === '')) return null;
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value === null || value === undefined || value === '' ? 'N/A' : value}
      </Text>
    </div>
  );
}

function InfoCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="xs" component="dl" m={0}>
        {children}
      </Stack>
    </Card>
  );
}

function BackButton({ role }: { role: string | undefined }) {
  return (
    <Button
      component={Link}
      to={dashboardPathForRole(role)}
      variant="default"
      leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
    >
      Back to Dashboard
    </Button>
  );
}

/**
 * The report, whenever one exists and whatever the status: its code, the PDF and the public
 * verification page (docs/product/reports-and-verification.md).
 */
function ReportCard({ code, revoked }: { code: string; revoked: boolean }) {
  const downloadReport = useReportDownload();
  return (
    <Card withBorder radius="md" padding="lg" mb="lg" component="section" aria-labelledby="report-card-title">
      <Group justify="space-between" align="center" gap="md">
        <div>
          <Title order={2} size="h4" id="report-card-title">
            Valuation Report
          </Title>
          <Text size="sm" c="dimmed">
            {revoked ? 'Withdrawn report, code ' : 'Verification code '}
            <Text span ff="monospace" fw={700} c="dark">
              {code}
            </Text>
          </Text>
        </div>
        <Group gap="xs">
          <Button
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() => void downloadReport(code)}
          >
            Download PDF
          </Button>
          <Button
            component={Link}
            to={`/verify-report?code=${encodeURIComponent(code)}`}
            variant="default"
            leftSection={<IconShieldCheck size={16} aria-hidden="true" />}
          >
            Verify
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

async function viewFile(file: SampleFile) {
  try {
    await openInNewTab(() => fetchBlob(uploadPath(file.fileName)));
  } catch (err) {
    toast.error('Error', errorMessage(err, 'Failed to open the file'));
  }
}

export function SampleDetailPage({
  reportPanel: ReportPanel,
  quotePanel: QuotePanel,
  custodyPanel: CustodyPanel,
}: {
  reportPanel?: SampleReportPanelSlot;
  quotePanel?: SampleQuotePanelSlot;
  custodyPanel?: SampleCustodyPanelSlot;
} = {}) {
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
  const { user } = useSession();
  const query = useQuery({ ...sampleDetailQuery(validId ? id : 0), enabled: validId });
  const [viewing, setViewing] = useState<number | null>(null);
  usePageTitle(query.data?.itemName ?? 'Sample');

  const state = detailPageState(query, {
    validId,
    notFoundTitle: 'Sample Not Found',
    notFoundText: 'The sample you are looking for does not exist or you do not have access to it.',
    back: <BackButton role={user?.role} />,
    loadingLabel: 'Loading sample...',
    rowHeight: 120,
    errorText: errorMessage(query.error, FETCH_FAILED),
    errorExtra: <BackButton role={user?.role} />,
  });
  if ('view' in state) return state.view;
  const s: SampleDetail = state.data;
  const representative = !s.isPersonalSubmission;
  const staffView = isLabRole(user?.role);
  const canShare = user?.role === 'admin' || user?.id === s.userId;
  const photos = s.files.filter((f) => f.fileCategory === 'photo');

  return (
    <Container size="lg" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" align="flex-start" mb="lg" gap="md">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <Box style={{ flexShrink: 0 }} pt={6}>
            <StatusIcon status={s.status} size={36} />
          </Box>
          <div style={{ minWidth: 0 }}>
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {s.itemName}
            </Title>
            <Group gap="xs" mt={4}>
              <Text c="dimmed" ff="monospace">
                {displaySampleId(s.id)}
              </Text>
              <StatusBadge status={s.status} />
              <CustodyBadge state={s.custody.state} />
            </Group>
          </div>
        </Group>
        <BackButton role={user?.role} />
      </Group>

      {s.reportRevokedAt && (
        <Alert color="red" title="Report withdrawn" mb="lg">
          The report {s.reportCode ? `${s.reportCode} ` : ''}was withdrawn on{' '}
          {formatDateTime(s.reportRevokedAt)}
          {s.reportRevokedReason ? `: ${s.reportRevokedReason}` : '.'}
        </Alert>
      )}

      {s.reportCode && <ReportCard code={s.reportCode} revoked={Boolean(s.reportRevokedAt)} />}

      {(s.report || s.reportElements.length > 0) && (
        <ReportContentCard report={s.report} files={s.files} elements={s.reportElements} />
      )}

      {/* Sharing and the log are the owner's (and an admin's); staff read the sample but do not share it. */}
      {s.reportCode && !s.reportRevokedAt && canShare && <ShareLinksCard sampleId={s.id} />}
      {s.reportCode && canShare && <VerificationLogCard sampleId={s.id} />}

      {QuotePanel && <QuotePanel sample={s} />}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <InfoCard title="General Information">
          <Field label="Category" value={optionLabel(CATEGORIES, s.category)} always />
          <Field label="Submission Date" value={formatDate(s.submissionDate)} always />
          <Field label="Services Requested" value={servicesText(s)} always />
          <Field
            label="Assigned Staff"
            value={s.assignedStaff ? fullName(s.assignedStaff) || 'Assigned' : 'Unassigned'}
            always
          />
          <Field label="Purpose of Valuation" value={optionLabel(PURPOSES, s.purposeOfValuation)} />
          <Field label="Urgency Level" value={s.urgencyLevel === 'urgent' ? 'Urgent' : 'Standard'} />
          <Field label="Estimated Value Range" value={optionLabel(VALUE_RANGES, s.estimatedValueRange)} />
          <Field
            label="Report Code"
            value={
              s.reportCode ? (
                <Group gap="xs" wrap="wrap">
                  <Text span ff="monospace" fw={600}>
                    {s.reportCode}
                  </Text>
                  <CredentialDownloadButton reportCode={s.reportCode} />
                </Group>
              ) : null
            }
          />
        </InfoCard>

        <InfoCard title="Submitter Information">
          <Field label="Type" value={representative ? 'Representative' : 'Personal'} always />
          <Field
            label="Name"
            value={(representative ? s.representativeName : null) || s.submitterName}
            always
          />
          <Field
            label="Email"
            value={(representative ? s.representativeEmail : null) || s.submitterEmail}
            always
          />
          <Field label="Phone" value={s.submitterPhone} />
          <Field label="Country" value={optionLabel(COUNTRIES, s.submitterCountry)} />
          <Field
            label="Relationship to Owner"
            value={optionLabel(RELATIONSHIPS, s.relationshipToOwner ?? s.representativeRelation)}
          />
          <Field label="Client Name" value={s.clientName} />
        </InfoCard>

        <InfoCard title="Item Details">
          <Field label="Description" value={s.description} always />
          <Field label="Estimated Age" value={s.estimatedAge} always />
          <Field label="Dimensions" value={s.dimensions} always />
          <Field label="Weight" value={s.weight} always />
          <Field label="Materials" value={s.materials} always />
          <Field label="Special Instructions" value={s.specialInstructions} always />
        </InfoCard>

        <Card withBorder radius="md" padding="lg" component="section" aria-label="Uploaded Files">
          <Title order={2} size="h4" mb="sm">
            Uploaded Files
          </Title>
          {s.files.length === 0 ? (
            <Text c="dimmed">No files uploaded.</Text>
          ) : (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {s.files.map((f) => (
                <Group key={f.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    {f.fileCategory === 'photo' ? (
                      <IconPhoto size={20} aria-label="Photo" role="img" />
                    ) : (
                      <IconFileText size={20} aria-label="Document" role="img" />
                    )}
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" truncate="end" title={f.originalName}>
                        {f.originalName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatKb(f.fileSize)}
                      </Text>
                    </div>
                  </Group>
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconEye size={14} aria-hidden="true" />}
                    onClick={() => (f.fileCategory === 'photo' ? setViewing(photos.indexOf(f)) : viewFile(f))}
                    aria-label={`View ${f.originalName}`}
                  >
                    View
                  </Button>
                </Group>
              ))}
            </Stack>
          )}
        </Card>
      </SimpleGrid>

      <Card withBorder radius="md" padding="lg" mt="lg" component="section" aria-label="Photos">
        <Title order={2} size="h4" mb="sm">
          Photos
        </Title>
        <PhotoGallery photos={photos} open={viewing} onOpenChange={setViewing} />
      </Card>

      {CustodyPanel && <CustodyPanel sample={s} />}

      <Card withBorder radius="md" padding="lg" mt="lg" component="section" aria-label="Status History">
        <Title order={2} size="h4" mb="md">
          Status History
        </Title>
        {s.statusHistory.length === 0 ? (
          <Text c="dimmed">No status changes recorded yet.</Text>
        ) : (
          <Timeline active={s.statusHistory.length - 1} bulletSize={22} lineWidth={2}>
            {s.statusHistory.map((h) => (
              <Timeline.Item
                key={h.id}
                bullet={<StatusIcon status={h.status} size={12} />}
                title={SAMPLE_STATUS_LABELS[normalizeStatus(h.status)]}
              >
                <Text size="sm" c="dimmed">
                  {formatDateTime(h.createdAt)}
                  {h.updatedBy ? ` · ${fullName(h.updatedBy) || 'Lab member'}` : ''}
                </Text>
                {h.comment && <Text size="sm">{h.comment}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Card>

      {staffView && s.reportElements.length > 0 && !ReportPanel && (
        <Card withBorder radius="md" padding="lg" mt="lg" component="section" aria-label="Report Elements">
          <Title order={2} size="h4" mb="sm">
            Report Elements
          </Title>
          <ElementsTable rows={s.reportElements} />
        </Card>
      )}

      {staffView && ReportPanel && (
        <div style={{ marginTop: 'var(--mantine-spacing-lg)' }}>
          <ReportPanel sampleId={s.id} reportCode={s.reportCode} />
        </div>
      )}
    </Container>
  );
}
