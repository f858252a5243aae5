import { type Actor, isAdmin, isSelf, runsTheLab } from './actor';

// Who may do what with a sample, its files and its report: docs/product/roles-and-access.md.
// Every rule of this resource lives here; handlers and route guards call these functions and never
// compare roles themselves. Whoever may not read a sample is told 404 (its existence is never
// revealed); whoever may read it but not change it is told 403.

/** The parts of a sample that decide access. */
export type SampleAccess = { userId: number; assignedStaffId: number | null };

const isAssignedStaff = (actor: Actor, sample: SampleAccess) =>
  actor.isActive && actor.role === 'staff' && sample.assignedStaffId === actor.id;

/** The owner, any staff member and admins read a sample with its elements and history. */
export const canReadSample = (actor: Actor, sample: SampleAccess) =>
  isSelf(actor, sample.userId) || runsTheLab(actor);

/** A sample's uploaded photos and documents follow the sample. */
export const canReadSampleFiles = (actor: Actor, sample: SampleAccess) => canReadSample(actor, sample);

/** The lab's lists (work list, every sample, dashboard counters): staff and admins. */
export const canListLabSamples = (actor: Actor) => runsTheLab(actor);

/** The work list shows an admin every sample, and a staff member only those assigned to them. */
export const seesEverySample = (actor: Actor) => isAdmin(actor);

/** Changing a sample's status (and so its history): an admin, or the staff member it is assigned to. */
export const canWorkOnSample = (actor: Actor, sample: SampleAccess) =>
  isAdmin(actor) || isAssignedStaff(actor, sample);

/** Giving a sample to someone: admins only. */
export const canAssignSample = (actor: Actor) => isAdmin(actor);

/** Who can be given a sample: an active staff member or admin. */
export const canBeAssignedSamples = (assignee: Actor) => runsTheLab(assignee);

/** Writing report content at all: never a customer, whatever the sample (asked before the lookup). */
export const canIssueReports = (actor: Actor) => runsTheLab(actor);

/** Issuing or re-issuing this sample's report: the people who work on it. */
export const canIssueReport = (actor: Actor, sample: SampleAccess) => canWorkOnSample(actor, sample);

/** Downloading an issued report's PDF: the owner, any staff member and admins. */
export const canDownloadReport = (actor: Actor, sample: SampleAccess) => canReadSample(actor, sample);

/** Withdrawing an issued report: admins only. */
export const canRevokeReport = (actor: Actor) => isAdmin(actor);

/** Handing out share links that disclose a report's value, and reading who verified it: the owner and admins. */
export const canShareReport = (actor: Actor, sample: SampleAccess) =>
  isSelf(actor, sample.userId) || isAdmin(actor);

/** Reviewing reports at all (the approve and send-back calls, the review list): active staff and admins. */
export const canReviewReports = (actor: Actor) => runsTheLab(actor);

/**
 * Approving or sending back one revision awaiting review: any active staff member or admin except
 * the revision's author — a second expert, never the same one (docs/product/valuation-report.md).
 * Staff may read every sample, so they may review any sample's report, not only their own work list's.
 */
export const canReviewRevision = (actor: Actor, revision: { issuedBy: number | null }) =>
  canReviewReports(actor) && revision.issuedBy !== actor.id;
