import { Alert, Button, Card, Collapse, Group, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconChevronDown, IconChevronUp, IconArrowBackUp } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  MAX_REVIEW_COMMENT,
  rejectReportBody,
  type ReportReview,
  type ReviewDecision,
} from '../../../../common/contracts/review';
import { isLabRole } from '../../../../common/domain/roles';
import {
  dateInWords,
  formatMajorRange,
  gradeLabel,
  valueTypeLabel,
  verdictLabel,
} from '../../../../common/domain/valuation';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { AppraisalParts } from '../../../components/AppraisalParts';
import { ElementsTable } from '../../../components/ElementsTable';
import { IdentificationList, statedFields } from '../../../components/ReportParts';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { reportReviewQuery, reviewHistoryQuery } from '../../../lib/reviews';
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
  if (!r.canReview)
    return (
      <Alert color="blue" variant="light" title="Awaiting review by a second expert">
        Revision {r.revision}, issued by {r.author?.id === userId ? 'you' : nameOf(r.author)} on{' '}
        {formatDateTime(r.submittedAt)}, is not public yet: another staff member or an admin must approve it
        before the customer sees it.
      </Alert>
    );
  return <ReviewCard review={r} />;
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

function ReviewCard({ review: r }: { review: ReportReview }) {
  const [showContent, setShowContent] = useState(false);
  const [sendBackOpen, setSendBackOpen] = useState(false);
  const approve = useApproveReport(r.sampleId);
  const contentId = useId();
  const onApprove = () =>
    approve.mutate(undefined, {
      onSuccess: (res) =>
        toast.success('Report Approved', `${res.message}. Verification code: ${res.reportCode}`),
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to approve the report')),
    });
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={`${contentId}-title`}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={`${contentId}-title`}>
          Review this report
        </Title>
        <Text size="sm">
          Revision {r.revision} (code{' '}
          <Text span ff="monospace" fw={600}>
            {r.reportCode}
          </Text>
          ) was issued by <strong>{nameOf(r.author)}</strong> on {formatDateTime(r.submittedAt)} and awaits a
          second expert. The customer sees nothing of it until it is approved.
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
            <SubmittedContent review={r} />
          </Collapse>
        </div>
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
            loading={approve.isPending}
            leftSection={<IconCheck size={16} aria-hidden="true" />}
            onClick={onApprove}
          >
            Approve
          </Button>
        </Group>
      </Stack>
      <SendBackDialog sampleId={r.sampleId} opened={sendBackOpen} onClose={() => setSendBackOpen(false)} />
    </Card>
  );
}

/** The text of the cleaned rich text, as plain paragraphs (never rendered as HTML). */
const plainText = (html: string | null) =>
  html ? (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').trim() : '';

function SubmittedContent({ review: r }: { review: ReportReview }) {
  const c = r.content;
  const v = c?.valuation;
  const summary = plainText(c?.summary ?? null);
  return (
    <Stack gap="sm" mt="sm">
      {c && statedFields(c.identification).length ? (
        <IdentificationList identification={c.identification} />
      ) : null}
      {c?.authenticity || c?.condition ? (
        <Text size="sm">
          {c.authenticity ? `Authenticity: ${verdictLabel(c.authenticity.verdict)}. ` : ''}
          {c.condition ? `Condition: ${gradeLabel(c.condition.grade)}.` : ''}
        </Text>
      ) : null}
      {v ? (
        <Text size="sm">
          <strong>{formatMajorRange(v)}</strong> — {valueTypeLabel(v.valueType)} in {v.currency}, as at{' '}
          {dateInWords(v.effectiveDate)}.
        </Text>
      ) : null}
      {c?.photoIds.length ? <Text size="sm">{c.photoIds.length} photo(s) chosen for the report.</Text> : null}
      {c ? <AppraisalParts report={c} files={[]} headingOrder={3} /> : null}
      {summary ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {summary}
        </Text>
      ) : null}
      {r.elements.length ? (
        <ElementsTable rows={r.elements} minWidth={420} />
      ) : (
        <Text size="sm" c="dimmed">
          No analysis elements.
        </Text>
      )}
    </Stack>
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
