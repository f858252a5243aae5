import type { Quote } from '../../../common/contracts/quotes';
import type {
  ListThumbnail,
  OwnSampleListItem,
  PersonName,
  Sample,
  SampleDetail,
  SampleListItem,
  SampleWithNames,
} from '../../../common/contracts/samples';
import { effectiveQuoteStatus } from '../../../common/domain/quotes';
import { turnaroundOf } from '../../../common/domain/turnaround';
import type { SampleRow } from '../../db/samples';
import { isoDate as iso, isoDateOrNull as isoOrNull } from '../../time';
import type { FirstPhoto, findSampleDetail, OwnSampleRow } from './samples.queries';
import { presentPhotoCopies } from '../photos/photo-links';
import { isRevaluationDue } from '../../../common/domain/appraisal';
import { presentReportContent } from '../reports/report-content';
import type { CustodySummary } from '../../../common/contracts/custody';
import { normalizeCustodyState } from '../../../common/domain/custody';
import { minorToNumber } from '../../../common/domain/money';

export type { SampleRow };

type ProgressColumns =
  'submissionDate' | 'urgencyLevel' | 'status' | 'quoteStatus' | 'quoteValidUntil' | 'quoteAcceptedAt';

/** A row's timestamps as a query gives them: Dates from drizzle, ISO 8601 text from a text-rows read. */
type Stamped<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: T[P] extends Date ? Date | string : T[P] extends Date | null ? Date | string | null : T[P];
};

/** The expected completion date, the overdue flag and the quote's status as a reader sees them now. */
export function presentProgress(
  row: Stamped<Pick<SampleRow, ProgressColumns>, 'submissionDate' | 'quoteAcceptedAt'>,
  now: Date = new Date(),
) {
  const quoteStatus = effectiveQuoteStatus(row.quoteStatus, row.quoteValidUntil, now);
  const turnaround = turnaroundOf(
    {
      submissionDate: row.submissionDate,
      urgencyLevel: row.urgencyLevel,
      status: row.status,
      quoteAcceptedAt: quoteStatus === 'accepted' ? row.quoteAcceptedAt : null,
    },
    now,
  );
  // Field by field, not a spread of the turnaround: a list presents this for every row.
  return {
    expectedCompletionDate: turnaround.expectedCompletionDate,
    overdue: turnaround.overdue,
    quoteStatus,
  };
}

/** The re-valuation date and whether it is near (docs/product/appraisal-report.md); a revoked report has none. */
export function presentRevaluation(
  row: Stamped<Pick<SampleRow, 'revalueBy' | 'reportRevokedAt'>, 'reportRevokedAt'>,
  now: Date = new Date(),
): { revalueBy: string | null; revaluationDue: boolean } {
  const revalueBy = row.reportRevokedAt ? null : row.revalueBy;
  return { revalueBy, revaluationDue: isRevaluationDue(revalueBy, now) };
}

type CustodyColumns = Stamped<
  Pick<
    SampleRow,
    'custodyState' | 'custodyLocationId' | 'custodyLocationName' | 'custodySince' | 'submissionDate'
  >,
  'custodySince' | 'submissionDate'
>;

/**
 * Custody (docs/product/custody.md): `{state, location, since}` of a sample row; `location` only for the lab's eyes. */
export function presentCustody(row: CustodyColumns, seesLocation: boolean): CustodySummary {
  return {
    state: normalizeCustodyState(row.custodyState),
    location:
      seesLocation && row.custodyLocationId !== null
        ? { id: row.custodyLocationId, name: row.custodyLocationName ?? '' }
        : null,
    since: iso(row.custodySince ?? row.submissionDate),
  };
}

/** The owner's declared value in major units, with its currency (docs/product/custody.md). */
function presentDeclaredValue(row: Pick<SampleRow, 'declaredValueMinor' | 'declaredCurrency'>) {
  const currency = row.declaredCurrency;
  return row.declaredValueMinor !== null && currency
    ? { declaredValue: minorToNumber(row.declaredValueMinor, currency), declaredCurrency: currency }
    : { declaredValue: null, declaredCurrency: null };
}

/**
 * The one place that decides what of a sample row leaves the server. `seesLocation`: the reader
 * runs the lab (the custody location is the lab's, not the owner's: server/policies/custody.ts).
 */
export function presentSample(row: SampleRow, seesLocation = true): Sample {
  // The computed parts field by field, not spread: the admin list presents this for every row.
  const progress = presentProgress(row);
  const revaluation = presentRevaluation(row);
  const declared = presentDeclaredValue(row);
  return {
    id: row.id,
    userId: row.userId,
    submitterName: row.submitterName,
    submitterEmail: row.submitterEmail,
    submitterPhone: row.submitterPhone,
    submitterCountry: row.submitterCountry,
    isPersonalSubmission: row.isPersonalSubmission,
    representativeEmail: row.representativeEmail,
    relationshipToOwner: row.relationshipToOwner,
    itemName: row.itemName,
    category: row.category,
    estimatedAge: row.estimatedAge,
    description: row.description,
    dimensions: row.dimensions,
    weight: row.weight,
    materials: row.materials,
    expertValuation: row.expertValuation,
    authenticityCheck: row.authenticityCheck,
    conditionAssessment: row.conditionAssessment,
    provenanceResearch: row.provenanceResearch,
    purposeOfValuation: row.purposeOfValuation,
    urgencyLevel: row.urgencyLevel,
    estimatedValueRange: row.estimatedValueRange,
    specialInstructions: row.specialInstructions,
    isRepresentative: row.isRepresentative,
    representativeName: row.representativeName,
    representativeRelation: row.representativeRelation,
    clientName: row.clientName,
    status: row.status,
    submissionDate: iso(row.submissionDate),
    lastUpdated: iso(row.lastUpdated),
    assignedStaffId: row.assignedStaffId,
    reportGenerated: row.reportGenerated,
    reportGeneratedAt: isoOrNull(row.reportGeneratedAt),
    reportGeneratedBy: row.reportGeneratedBy,
    reportCode: row.reportCode,
    reportRevokedAt: isoOrNull(row.reportRevokedAt),
    reportRevokedReason: row.reportRevokedReason,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    expectedCompletionDate: progress.expectedCompletionDate,
    overdue: progress.overdue,
    quoteStatus: progress.quoteStatus,
    revalueBy: revaluation.revalueBy,
    revaluationDue: revaluation.revaluationDue,
    custody: presentCustody(row, seesLocation),
    declaredValue: declared.declaredValue,
    declaredCurrency: declared.declaredCurrency,
  };
}

type OwnListRow = OwnSampleRow;

/** A list row's thumbnail fields from its first photo (docs/product/photos.md). */
export function presentListThumbnail(firstPhoto: FirstPhoto): ListThumbnail {
  if (!firstPhoto) return { thumbnailUrl: null, photoProcessing: false };
  const copies = presentPhotoCopies({
    id: firstPhoto.id,
    copiesState: firstPhoto.copiesState,
    fileCategory: 'photo',
  });
  return { thumbnailUrl: copies.thumbnailUrl, photoProcessing: copies.processing };
}

/**
 * A row of the caller's own list (GET /api/samples); `now`: the request's time, read once per list.
 * Written as one object literal (no spread): an estate's list is hundreds of rows.
 */
export function presentOwnSample(row: OwnListRow, now: Date = new Date()): OwnSampleListItem {
  const progress = presentProgress(row, now);
  const revaluation = presentRevaluation(row, now);
  const thumbnail = presentListThumbnail(row.firstPhoto);
  return {
    id: row.id,
    itemName: row.itemName,
    category: row.category,
    status: row.status,
    urgencyLevel: row.urgencyLevel,
    submissionDate: iso(row.submissionDate),
    lastUpdated: iso(row.lastUpdated),
    reportGenerated: row.reportGenerated,
    reportCode: row.reportCode,
    reportRevokedAt: isoOrNull(row.reportRevokedAt),
    expertValuation: row.expertValuation,
    authenticityCheck: row.authenticityCheck,
    conditionAssessment: row.conditionAssessment,
    provenanceResearch: row.provenanceResearch,
    thumbnailUrl: thumbnail.thumbnailUrl,
    photoProcessing: thumbnail.photoProcessing,
    expectedCompletionDate: progress.expectedCompletionDate,
    overdue: progress.overdue,
    quoteStatus: progress.quoteStatus,
    revalueBy: revaluation.revalueBy,
    revaluationDue: revaluation.revaluationDue,
    custody: presentCustody(row, false),
    collectionId: row.collectionId,
  };
}

function presentSampleWithNames(
  row: SampleRow,
  user: PersonName | null,
  assignedStaff: PersonName | null,
  seesLocation = true,
): SampleWithNames {
  // Exactly the two name fields, whatever else the row carried (e.g. the staff member's id).
  const hasName = (p: PersonName | null): PersonName | null =>
    p && (p.firstName !== null || p.lastName !== null)
      ? { firstName: p.firstName, lastName: p.lastName }
      : null;
  // Added to the presented sample rather than spread into a copy of its fifty fields.
  return Object.assign(presentSample(row, seesLocation), {
    user: hasName(user),
    assignedStaff: hasName(assignedStaff),
  });
}

/** A row of the admin's sample list. */
export function presentSampleListItem(
  row: SampleRow,
  user: PersonName | null,
  assignedStaff: PersonName | null,
  firstPhoto: FirstPhoto,
): SampleListItem {
  return Object.assign(presentSampleWithNames(row, user, assignedStaff), presentListThumbnail(firstPhoto));
}

/** One sample with its files, report elements and history (GET /api/samples/{id}). */
export function presentSampleDetail(
  found: NonNullable<Awaited<ReturnType<typeof findSampleDetail>>>,
  quote: Quote | null,
  seesLocation: boolean,
): SampleDetail {
  return Object.assign(presentSampleWithNames(found.sample, found.user, found.assignedStaff, seesLocation), {
    quote,
    files: found.files.map((f) => ({
      id: f.id,
      sampleId: f.sampleId,
      fileName: f.fileName,
      originalName: f.originalName,
      fileType: f.fileType,
      fileSize: f.fileSize,
      fileCategory: f.fileCategory === 'document' ? ('document' as const) : ('photo' as const),
      uploadDate: iso(f.uploadDate),
      ...presentPhotoCopies(f),
    })),
    reportElements: found.elements.map((e) => ({
      id: e.id,
      sampleId: e.sampleId,
      element: e.element,
      percentage: Number(e.percentage),
      purity: e.purity,
      quality: e.quality,
      notes: e.notes,
      createdAt: iso(e.createdAt),
    })),
    report: presentReportContent(found.report),
    statusHistory: found.history.map((h) => ({
      id: h.id,
      status: h.status,
      comment: h.comment,
      createdAt: iso(h.createdAt),
      updatedBy: h.authorId
        ? { id: h.authorId, firstName: h.authorFirstName, lastName: h.authorLastName }
        : null,
    })),
  });
}
