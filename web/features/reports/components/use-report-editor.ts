import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { reportDefaultsQuery } from '../api';
import type { ReportReview } from '../../../../common/contracts/review';
import type { SampleDetail } from '../../../../common/contracts/samples';
import { reportReviewQuery } from '../../../lib/reviews';
import { draftFromSample, type DraftSource, type ReportDraft, sameAsIssued } from '../report-draft';
import { useGenerateReport } from './use-generate-report';

/** Where the body's messages about each part of the draft live. */
const ERROR_PATHS: Record<keyof ReportDraft, string> = {
  rows: 'elements',
  identification: 'identification',
  verdict: 'authenticity',
  rationale: 'authenticity',
  grade: 'condition',
  conditionNotes: 'condition',
  valuation: 'valuation',
  summary: 'summary',
  photoIds: 'photoIds',
  assignment: 'assignment',
  comparables: 'comparables',
  revalueBy: 'revalueBy',
  tax: 'taxAppraisal',
  taxMode: 'taxAppraisal',
};

/**
 * What the editor starts from: the draft a second expert sent back or is reading (every part of it,
 * photos in their order), or else the sample's issued report.
 */
function draftSource(sample: SampleDetail, pending: ReportReview | null): DraftSource {
  return pending ? { ...sample, report: pending.content, reportElements: pending.elements } : sample;
}

/** Changes whenever the draft under review changes hands: sent, sent back, approved. */
const pendingKey = (p: ReportReview | null | undefined) =>
  p ? `${p.state}:${p.revision}:${p.submittedAt}:${p.reviewedAt ?? ''}` : 'none';

/**
 * The report being written, for the dialog and the sample page's panel alike: the draft (filled
 * from the draft under review or sent back, else the issued report, whenever `loadKey` or the
 * review's state changes), its errors, the 'nothing has changed' warning and issuing
 * (docs/product/valuation-report.md).
 */
export function useReportEditor(sampleId: number, sample: SampleDetail | undefined, loadKey: string | null) {
  const [draft, setDraft] = useState<ReportDraft | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [warnUnchanged, setWarnUnchanged] = useState(false);
  const code = sample?.reportCode ?? null;
  const { generate, preview, previewing, isPending, errors, clearErrors, clearErrorsUnder } =
    useGenerateReport(sampleId, Boolean(code));

  // A new appraisal starts from the lab's limiting conditions; without them (an error), from nothing.
  const defaults = useQuery(reportDefaultsQuery());
  const defaultsSettled = !defaults.isPending;
  // With the second review, the draft sent back (or awaiting review) is what the author continues.
  const review = useQuery(reportReviewQuery(sampleId));
  const pending = review.data ?? null;
  const settled = defaultsSettled && !review.isPending;
  const key = loadKey === null ? null : `${loadKey}|${pendingKey(pending)}`;
  useEffect(() => {
    if (sample && settled && key !== null && key !== loadedFor) {
      setDraft(draftFromSample(draftSource(sample, pending), defaults.data));
      setLoadedFor(key);
    }
  }, [sample, key, loadedFor, settled, defaults.data, pending]);

  // A changed part loses its messages until the next Generate checks it again.
  const update = (patch: Partial<ReportDraft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    clearErrorsUnder(Object.entries(ERROR_PATHS).flatMap(([part, path]) => (part in patch ? [path] : [])));
  };

  const reset = () => {
    setDraft(null);
    setLoadedFor(null);
    setWarnUnchanged(false);
    clearErrors();
  };

  /** Issues the draft; re-issuing exactly what the report states asks first (unless `confirmed`). */
  const issue = async (opts: { markCompleted?: boolean; confirmed?: boolean } = {}) => {
    if (!draft) return null;
    if (!opts.confirmed && code && sample && sameAsIssued(draft, sample)) {
      setWarnUnchanged(true);
      return null;
    }
    setWarnUnchanged(false);
    return generate(draft, opts);
  };

  return {
    draft,
    /** The revision awaiting review or sent back, when there is one (its content is the draft). */
    pending,
    /** Changes with each fresh load: a key for the editors that read their content once. */
    draftKey: loadedFor,
    update,
    reset,
    issue,
    isPending,
    /** Opens the draft's PDF, marked as a draft, in a new tab; nothing is issued. */
    preview: () => (draft ? preview(draft) : Promise.resolve()),
    previewing,
    errors,
    formError: errors.elements ?? null,
    warnUnchanged: warnUnchanged && Boolean(code),
    dismissWarning: () => setWarnUnchanged(false),
  };
}
