import { describe, expect, it } from 'vitest';
import type { Actor } from './actor';
import { canReadAuditTrail } from './audit';
import { canCreateCollection, canFillCollection, canReadCollection } from './collections';
import { canIssueSchedules } from './schedules';
import { canHandleCustody, canListLocations, canManageLocations, seesCustodyDetails } from './custody';
import { canManageLabSettings, canReadLabLogo } from './lab';
import {
  canAssignSample,
  canBeAssignedSamples,
  canDownloadReport,
  canIssueReport,
  canIssueReports,
  canListLabSamples,
  canReadSample,
  canReadSampleFiles,
  canReviewReports,
  canReviewRevision,
  canRevokeReport,
  canWorkOnSample,
  seesEverySample,
} from './samples';
import { canAnswerQuote, canDownloadInvoice, canMarkInvoicePaid, canSendQuote } from './quotes';
import {
  canManageUsers,
  canReadPersonalImage,
  canResetTwoFactor,
  canUploadSignature,
  removesLastAdmin,
} from './users';

// Every policy function × every kind of person, as one table (docs/product/roles-and-access.md).
// The HTTP side of the same rules is tests/api/access-matrix.api.test.ts.

const PERSONAS = {
  customerOwner: { id: 1, role: 'user', isActive: true },
  otherCustomer: { id: 2, role: 'user', isActive: true },
  assignedStaff: { id: 3, role: 'staff', isActive: true },
  otherStaff: { id: 4, role: 'staff', isActive: true },
  admin: { id: 5, role: 'admin', isActive: true },
  inactiveOwner: { id: 1, role: 'user', isActive: false },
  inactiveAssignedStaff: { id: 3, role: 'staff', isActive: false },
  inactiveAdmin: { id: 5, role: 'admin', isActive: false },
} satisfies Record<string, Actor>;
type Persona = keyof typeof PERSONAS;

/** The sample everyone is asked about: owned by the customer, assigned to the staff member. */
const sample = { userId: 1, assignedStaffId: 3 };

// One letter per persona, in the order above: Y allowed, n refused.
const MATRIX: Record<string, [string, (actor: Actor) => boolean]> = {
  'read the sample': ['YnYYYnnn', (a) => canReadSample(a, sample)],
  "read the sample's files": ['YnYYYnnn', (a) => canReadSampleFiles(a, sample)],
  'list the lab samples': ['nnYYYnnn', canListLabSamples],
  'see every sample in the work list': ['nnnnYnnn', seesEverySample],
  'change the status': ['nnYnYnnn', (a) => canWorkOnSample(a, sample)],
  'assign the sample': ['nnnnYnnn', canAssignSample],
  'be assigned samples': ['nnYYYnnn', canBeAssignedSamples],
  'issue reports at all': ['nnYYYnnn', canIssueReports],
  "issue this sample's report": ['nnYnYnnn', (a) => canIssueReport(a, sample)],
  'download the report PDF': ['YnYYYnnn', (a) => canDownloadReport(a, sample)],
  'revoke the report': ['nnnnYnnn', canRevokeReport],
  'review reports at all': ['nnYYYnnn', canReviewReports],
  'approve or send back a revision the assigned staff issued': [
    'nnnYYnnn',
    (a) => canReviewRevision(a, { issuedBy: 3 }),
  ],
  'approve or send back a revision the admin issued': [
    'nnYYnnnn',
    (a) => canReviewRevision(a, { issuedBy: 5 }),
  ],
  'list users and change roles': ['nnnnYnnn', canManageUsers],
  "reset another account's two-factor sign-in": ['nnnnYnnn', (a) => canResetTwoFactor(a, { id: 1 })],
  "reset one's own two-factor sign-in (admin)": ['nnnnnnnn', (a) => canResetTwoFactor(a, { id: 5 })],
  'upload a signature': ['nnYYYnnn', canUploadSignature],
  "read the owner's profile picture": ['YnnnYnnn', (a) => canReadPersonalImage(a, { id: 1 })],
  "read the assigned staff's signature": ['nnYnYnnn', (a) => canReadPersonalImage(a, { id: 3 })],
  'read the lab logo': ['nnYYYnnn', canReadLabLogo],
  'manage the lab settings': ['nnnnYnnn', canManageLabSettings],
  'read, export and verify the audit trail': ['nnnnYnnn', canReadAuditTrail],
  "send or withdraw the sample's quote": ['nnYnYnnn', (a) => canSendQuote(a, sample)],
  'accept or decline the quote': ['Ynnnnnnn', (a) => canAnswerQuote(a, sample)],
  'download the invoice PDF': ['YnYYYnnn', (a) => canDownloadInvoice(a, sample)],
  'mark the invoice paid': ['nnnnYnnn', canMarkInvoicePaid],
  'check in, move, return and label an item': ['nnYYYnnn', canHandleCustody],
  "see the item's location and every custody event": ['nnYYYnnn', seesCustodyDetails],
  'read the storage locations and the inventory': ['nnYYYnnn', canListLocations],
  'create, rename and retire storage locations': ['nnnnYnnn', canManageLocations],
  'make a collection of their own': ['YYYYYnnn', canCreateCollection],
  "read the customer's collection": ['YnYYYnnn', (a) => canReadCollection(a, sample)],
  "add samples to the customer's collection or import into it": [
    'Ynnnnnnn',
    (a) => canFillCollection(a, sample),
  ],
  "issue a schedule of a customer's collection": ['nnYYYnnn', canIssueSchedules],
};

describe('policy matrix', () => {
  const names = Object.keys(PERSONAS) as Persona[];
  for (const [action, [expected, allowed]] of Object.entries(MATRIX)) {
    it(action, () => {
      const actual = names.map((p) => (allowed(PERSONAS[p]) ? 'Y' : 'n')).join('');
      // Compared as whole rows so a failure names every persona that changed.
      expect(Object.fromEntries(names.map((p, i) => [p, actual[i]]))).toEqual(
        Object.fromEntries(names.map((p, i) => [p, expected[i]])),
      );
    });
  }

  it('an unassigned sample can be worked on by admins only', () => {
    const unassigned = { userId: 1, assignedStaffId: null };
    expect(canWorkOnSample(PERSONAS.assignedStaff, unassigned)).toBe(false);
    expect(canIssueReport(PERSONAS.otherStaff, unassigned)).toBe(false);
    expect(canWorkOnSample(PERSONAS.admin, unassigned)).toBe(true);
  });

  it('an admin the sample is assigned to works on it as an admin', () => {
    const assignedToAdmin = { userId: 1, assignedStaffId: 5 };
    expect(canWorkOnSample(PERSONAS.admin, assignedToAdmin)).toBe(true);
    expect(canWorkOnSample(PERSONAS.assignedStaff, assignedToAdmin)).toBe(false);
  });
});

describe('the last active admin', () => {
  const stays = { role: 'admin', isActive: true } as const;
  it('may not lose the role or be deactivated', () => {
    expect(removesLastAdmin([5], { id: 5 }, { role: 'staff', isActive: true })).toBe(true);
    expect(removesLastAdmin([5], { id: 5 }, { role: 'user', isActive: true })).toBe(true);
    expect(removesLastAdmin([5], { id: 5 }, { role: 'admin', isActive: false })).toBe(true);
  });
  it('may stay an admin; another admin may step down; other accounts change freely', () => {
    expect(removesLastAdmin([5], { id: 5 }, stays)).toBe(false);
    expect(removesLastAdmin([5, 6], { id: 5 }, { role: 'user', isActive: true })).toBe(false);
    expect(removesLastAdmin([5], { id: 3 }, { role: 'user', isActive: true })).toBe(false);
    // An inactive admin is not among the active ones: changing them never empties the lab.
    expect(removesLastAdmin([5], { id: 7 }, { role: 'user', isActive: false })).toBe(false);
  });
});
