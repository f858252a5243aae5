import {
  Alert,
  Box,
  Button,
  Card,
  Collapse,
  Divider,
  Group,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import {
  IconArrowBackUp,
  IconCheck,
  IconChevronDown,
  IconChevronUp,
  IconFileTypePdf,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import {
  MAX_REVIEW_COMMENT,
  rejectReportBody,
  type ReportReview,
  type ReviewDecision,
} from '../../../../common/contracts/review';
import type { SampleFile } from '../../../../common/contracts/samples';
import { isLabRole } from '../../../../common/domain/roles';
import { displaySampleId } from '../../../../common/domain/samples';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ReportStatements, statesAnything } from '../../../components/ReportContentCard';
import { errorMessage, fetchBlob, openInNewTab } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { reportReviewQuery, reviewHistoryQuery } from '../../../lib/reviews';
import { sampleDetailQuery } from '../../../lib/sample-detail';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useApproveReport, useSendBackReport } from '../review-api';

type Person = { firstName: string | null; lastName: string | null } | null;
const nameOf = (p: Person) => (p ? [p.firstName, p.lastName].filter(Boolean).join(' ') : '') || 'a colleague';

/**
 * The second review on the staff sample page (docs/product/valuation-report.md): a reviewer sees who
 * issued the revision and when, what was submitted, and Approve / Send back; its author sees that it
 * awaits a second expert, and after a send-back, the reviewer's comment.
 */
export function ReportReviewPanel({ sampleId }: { sampleId: number }) {
  const { user } = useSession();
  const lab = isLabRole(user?.role);
  const review = useQuery({ ...reportReviewQuery(sampleId), enabled: lab });
  const history = useQuery({ ...reviewHistoryQuery(sampleId), enabled: lab });
  const decisions = history.data ?? [];
  if (!review.data && !decisions.length) return null;
  return (
    <Stack gap="lg">
      {review.data ? <CurrentReview review={review.data} userId={user?.id} /> : null}
      {decisions.length ? <ReviewHistory decisions={decisions} /> : null}
    </Stack>
  );
}

function CurrentReview({ review: r, userId }: { review: ReportReview; userId: number | undefined }) {
  if (r.state === 'returned') return <SentBack review={r} />;
  if (!r.canReview) return <Awaiting review={r} userId={userId} />;
  return <ReviewCard review={r} />;
}

/** The author (or anyone who may not decide) sees that it waits, and may read what was submitted. */
function Awaiting({ review: r, userId }: { review: ReportReview; userId: number | undefined }) {
  const [showContent, setShowContent] = useState(false);
  const sample = useSampleFiles(r.sampleId);
  const contentId = useId();
  return (
    <Alert color="blue" variant="light" title="Awaiting review by a second expert">
      <Stack gap="xs">
        <Text size="sm">
          Revision {r.revision}, issued by {r.author?.id === userId ? 'you' : nameOf(r.author)} on{' '}
          {formatDateTime(r.submittedAt)}, is not public yet: another staff member or an admin must approve it
          before the customer sees it.
        </Text>
        <div>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-expanded={showContent}
            aria-controls={`${contentId}-content`}
            leftSection={
              showContent ? (
                <IconChevronUp size={14} aria-hidden="true" />
              ) : (
                <IconChevronDown size={14} aria-hidden="true" />
              )
            }
            onClick={() => setShowContent((v) => !v)}
          >
            {showContent ? 'Hide what was submitted' : 'Show what was submitted'}
          </Button>
          <Collapse expanded={showContent} id={`${contentId}-content`}>
            <Box mt="sm" bg="white" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
              <DraftReading review={r} files={sample?.files ?? []} titleId={`${contentId}-draft`} />
            </Box>
          </Collapse>
        </div>
      </Stack>
    </Alert>
  );
}

/** Every approval and send-back on the sample, newest first (the lab's record; never the customer's). */
function ReviewHistory({ decisions }: { decisions: ReviewDecision[] }) {
  const titleId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          Review history
        </Title>
        <Text size="sm" c="dimmed">
          Every decision of the second review on this sample, newest first. Only the lab sees it.
        </Text>
        <Timeline bulletSize={22} lineWidth={2} active={decisions.length - 1}>
          {decisions.map((d) => (
            <Timeline.Item
              key={d.id}
              color={d.decision === 'approved' ? 'teal' : 'orange'}
              bullet={
                d.decision === 'approved' ? (
                  <IconCheck size={12} aria-hidden="true" />
                ) : (
                  <IconArrowBackUp size={12} aria-hidden="true" />
                )
              }
              title={
                <Text size="sm" fw={600} component="span">
                  {d.decision === 'approved' ? 'Approved' : 'Sent back'} by {nameOf(d.reviewer)}
                </Text>
              }
            >
              <Text size="xs" c="dimmed">
                {formatDateTime(d.decidedAt)} · revision {d.revision} ({d.reportCode}), issued by{' '}
                {nameOf(d.author)}
                {d.submittedAt ? ` on ${formatDateTime(d.submittedAt)}` : ''}
              </Text>
              {d.comment ? (
                <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {d.comment}
                </Text>
              ) : null}
            </Timeline.Item>
          ))}
        </Timeline>
      </Stack>
    </Card>
  );
}

function SentBack({ review: r }: { review: ReportReview }) {
  return (
    <Alert color="orange" variant="light" title="Sent back by the reviewer">
      <Stack gap={4}>
        <Text size="sm">
          {nameOf(r.reviewer)} sent revision {r.revision} back on {formatDateTime(r.reviewedAt)}. Nothing was
          made public. Change what is asked and issue the report again.
        </Text>
        <Text size="sm" fw={600}>
          Reviewer&apos;s comment:
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {r.comment}
        </Text>
      </Stack>
    </Alert>
  );
}

/** The sample (already loaded by the page around the panel): its photos, name and id. */
function useSampleFiles(sampleId: number) {
  return useQuery(sampleDetailQuery(sampleId)).data;
}

function ReviewCard({ review: r }: { review: ReportReview }) {
  const [sendBackOpen, setSendBackOpen] = useState(false);
  const [approveOpen, setApproveOpen] = useState(false);
  const approve = useApproveReport(r.sampleId);
  const sample = useSampleFiles(r.sampleId);
  const contentId = useId();
  // The reviewer lands on what they came for: the draft and its two decisions, not the page's top.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const el = heading.current;
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    el.focus({ preventScroll: true });
  }, []);
  const onApprove = () =>
    approve.mutate(undefined, {
      onSuccess: (res) => {
        setApproveOpen(false);
        toast.success('Report Approved', `${res.message}. Verification code: ${res.reportCode}`);
      },
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to approve the report')),
    });
  const author = nameOf(r.author);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={`${contentId}-title`}>
      <Stack gap="sm">
        <Title
          order={2}
          size="h3"
          id={`${contentId}-title`}
          ref={heading}
          tabIndex={-1}
          style={{ scrollMarginTop: 'calc(var(--app-shell-header-height, 60px) + 16px)', outline: 'none' }}
        >
          Review this report
        </Title>
        <Text size="sm">
          Revision {r.revision} (code{' '}
          <Text span ff="monospace" fw={600}>
            {r.reportCode}
          </Text>
          ) was issued by <strong>{author}</strong> on {formatDateTime(r.submittedAt)} and awaits a second
          expert. The customer sees nothing of it until it is approved. Read the draft below as its PDF will
          state it, then approve it or send it back.
        </Text>
        <DraftReading review={r} files={sample?.files ?? []} titleId={`${contentId}-draft`} />
        <Divider />
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            leftSection={<IconArrowBackUp size={16} aria-hidden="true" />}
            onClick={() => setSendBackOpen(true)}
          >
            Send back
          </Button>
          <Button
            color="teal"
            leftSection={<IconCheck size={16} aria-hidden="true" />}
            onClick={() => setApproveOpen(true)}
          >
            Approve
          </Button>
        </Group>
      </Stack>
      <SendBackDialog sampleId={r.sampleId} opened={sendBackOpen} onClose={() => setSendBackOpen(false)} />
      <ConfirmDialog
        opened={approveOpen}
        onClose={() => setApproveOpen(false)}
        title="Approve and issue this report?"
        centered={false}
        confirmLabel="Approve and issue"
        color="teal"
        loading={approve.isPending}
        onConfirm={onApprove}
      >
        Revision {r.revision} (code {r.reportCode}) becomes the issued report of{' '}
        {sample ? `${sample.itemName} (${displaySampleId(sample.id)})` : 'this sample'}: its PDF is signed by
        the lab, naming {author} as analyst and you as reviewer, and the code verifies publicly. The client is
        mailed that their report is ready
        {r.completeOnApproval ? ', and the sample is marked Completed, as its author asked' : ''}.{' '}
        {author === 'a colleague' ? 'The author' : author} is told that you approved it. An issued report is
        not taken back: a correction is a new revision.
      </ConfirmDialog>
    </Card>
  );
}

/**
 * The draft as its PDF will state it: every statement in the PDF's order (identification, the chosen
 * photos in their order, the opinion with its rationale and notes, the value and its basis, the
 * appraisal's parts, the summary) and the element table with each element's notes.
 */
function DraftReading({
  review: r,
  files,
  titleId,
}: {
  review: ReportReview;
  files: SampleFile[];
  titleId: string;
}) {
  return (
    <Stack
      gap="md"
      component="section"
      aria-labelledby={titleId}
      p="md"
      style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Group justify="space-between" align="center" gap="sm">
        <Title order={3} size="h4" id={titleId}>
          The draft, as the PDF will state it
        </Title>
        <DraftPdfButton sampleId={r.sampleId} />
      </Group>
      {statesAnything(r.content) || r.elements.length ? (
        <ReportStatements report={r.content} files={files} elements={r.elements} headingOrder={4} />
      ) : (
        <Text size="sm" c="dimmed">
          The draft states nothing yet: no identification, opinion, valuation or analysis elements.
        </Text>
      )}
    </Stack>
  );
}

/** Opens the draft's PDF (drawn for the lab, marked as a draft) in a new tab. */
function DraftPdfButton({ sampleId }: { sampleId: number }) {
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      await openInNewTab(() => fetchBlob(`/api/staff/samples/${sampleId}/report/review/pdf`));
    } catch (err) {
      toast.error('Error', errorMessage(err, 'Failed to open the draft PDF'));
    } finally {
      setOpening(false);
    }
  };
  return (
    <Button
      variant="default"
      size="xs"
      loading={opening}
      leftSection={<IconFileTypePdf size={14} aria-hidden="true" />}
      onClick={() => void open()}
    >
      Open the draft PDF
    </Button>
  );
}

function SendBackDialog({
  sampleId,
  opened,
  onClose,
}: {
  sampleId: number;
  opened: boolean;
  onClose: () => void;
}) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const sendBack = useSendBackReport(sampleId);
  const submit = () => {
    const parsed = rejectReportBody.safeParse({ comment });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please say what needs to change');
      return;
    }
    sendBack.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Sent Back', 'The report went back to its author with your comment.');
        setComment('');
        setError(null);
        onClose();
      },
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to send the report back')),
    });
  };
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title="Send the report back"
      centered={false}
      confirmLabel="Send back"
      color="orange"
      loading={sendBack.isPending}
      onConfirm={submit}
      reason={{
        label: 'What needs to change',
        name: 'comment',
        value: comment,
        error,
        maxLength: MAX_REVIEW_COMMENT,
        onChange: setComment,
      }}
    >
      The author sees your comment on this page and can issue the report again. Nothing is made public.
    </ConfirmDialog>
  );
}
