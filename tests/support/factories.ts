import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  IssueReportInput,
  IssueReportResponse,
  ReportElementInput,
} from '../../common/contracts/reports';
import type { AssignmentInput, ComparableInput } from '../../common/contracts/appraisal';
import type { SampleSubmissionInput } from '../../common/contracts/samples';
import type { Role } from '../../common/domain/roles';
import type { DbOrTx } from '../../server/db/client';
import { samples } from '../../server/db/schema';
import { callOk, loginToken, registerAccount } from './http';
import type { TestApp, TestUser } from './test-app';

// The test suites' one set of factories: fixture files, a submission as the form sends it, users by
// role, samples in a given status and assignment, and issued reports. A test states only what
// matters to it and takes the rest from here.

// ---- Fixture files ---------------------------------------------------------------------------

export const fixturePath = (name: string) => join(import.meta.dirname, '..', 'fixtures', name);
export const fixture = (name: string): Buffer => readFileSync(fixturePath(name));

export const PHOTO_JPEG = fixture('photo.jpg');
export const PHOTO_PNG = fixture('photo.png');
export const DOCUMENT_PDF = fixture('document.pdf');
/** A file named .png whose content is not an image. */
export const NOT_AN_IMAGE = fixture('not-an-image.png');

// ---- Submissions (POST /api/samples) -------------------------------------------------------------

/** Form fields as multipart text: every field of the submission schema, booleans as 'true'/'false'. */
export type SubmissionFields = Partial<Record<keyof SampleSubmissionInput, string>>;

/** A complete, valid personal submission, as the submit form sends it. */
export const SUBMISSION_FIELDS = {
  submitterName: 'Ada Lovelace',
  submitterEmail: 'ada@example.com',
  submitterPhone: '+44 20 7946 0000',
  submitterCountry: 'united-kingdom',
  isPersonalSubmission: 'true',
  itemName: 'Georgian Silver Teapot',
  category: 'furniture-decorative',
  estimatedAge: 'c. 1790',
  description: 'Sterling silver teapot with a wooden handle.',
  dimensions: '20 x 12 x 15 cm',
  weight: '650 g',
  materials: 'Silver, fruitwood',
  expertValuation: 'true',
  authenticityCheck: 'false',
  conditionAssessment: 'true',
  provenanceResearch: 'false',
  purposeOfValuation: 'insurance',
  urgencyLevel: 'urgent',
  estimatedValueRange: '1000-5000',
  specialInstructions: 'Handle with gloves.',
} as const satisfies SubmissionFields;

/** The valid submission with some fields changed (or removed with `undefined`). */
export function submissionFields(changes: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = { ...SUBMISSION_FIELDS };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

export type UploadFile = { field: 'photos' | 'documents'; name: string; bytes: Buffer; type?: string };

/** One photo (JPEG unless named .png), the least a submission needs. */
export const photoFile = (name = 'photo.jpg', bytes: Buffer = PHOTO_JPEG): UploadFile => ({
  field: 'photos',
  name,
  bytes,
  type: name.endsWith('.png') ? 'image/png' : 'image/jpeg',
});

/** The multipart body of a submission: text fields first, then the files. */
export function submissionForm(
  fields: Readonly<Record<string, string>> = SUBMISSION_FIELDS,
  files: readonly UploadFile[] = [photoFile()],
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(f.field, new Blob([new Uint8Array(f.bytes)], { type: f.type ?? '' }), f.name);
  return form;
}

/** A multipart form carrying one file part (and optional text parts before it). */
export function fileForm(
  field: string,
  bytes: Buffer,
  name: string,
  type: string,
  text: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(text)) form.append(k, v);
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

/** Submits a sample over HTTP as `token`'s owner and answers its id. */
export async function submitSample(
  t: { url: string },
  token: string,
  fields: Readonly<Record<string, string>> = SUBMISSION_FIELDS,
  files: readonly UploadFile[] = [photoFile()],
): Promise<number> {
  const created = await callOk<{ id: number }>(t, 'POST', '/api/samples', {
    token,
    form: submissionForm(fields, files),
  });
  return created.id;
}

type Account = { email: string; password: string; firstName: string; lastName: string };

/**
 * Over HTTP, as the product is used: `staff` and `customer` sign up, the admin makes `staff` staff,
 * the customer submits a sample called `itemName` with `photos`, and the admin assigns it to `staff`.
 */
export async function assignedSampleOverHttp(
  t: { url: string },
  opts: {
    admin: { email: string; password: string };
    staff: Account;
    customer: Account;
    itemName: string;
    photos: readonly UploadFile[];
  },
): Promise<{ sampleId: number; customerToken: string; adminToken: string; staffId: number }> {
  const adminToken = await loginToken(t, opts.admin.email, opts.admin.password);
  const staff = await registerAccount(t, opts.staff);
  await registerAccount(t, opts.customer);
  await callOk(t, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  const customerToken = await loginToken(t, opts.customer.email, opts.customer.password);
  const sampleId = await submitSample(
    t,
    customerToken,
    submissionFields({
      submitterName: `${opts.customer.firstName} ${opts.customer.lastName}`,
      submitterEmail: opts.customer.email,
      itemName: opts.itemName,
    }),
    opts.photos,
  );
  await callOk(t, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staff.id },
  });
  return { sampleId, customerToken, adminToken, staffId: staff.id };
}

// ---- Users ---------------------------------------------------------------------------------------

/**
 * One signed-in user per role given, in that order: `const [admin, staff] = await createUsers(t,
 * 'admin', 'staff')`. One user with more details: `createUser` of ./test-app.ts. (Loaded when called,
 * so benchmarks can use the submission factories without the vitest-only test app.)
 */
export async function createUsers<const R extends readonly Role[]>(
  t: TestApp,
  ...roles: R
): Promise<{ [K in keyof R]: TestUser }> {
  const { createUser } = await import('./test-app');
  const users = await Promise.all(roles.map((role) => createUser(t, { role })));
  return users as { [K in keyof R]: TestUser };
}

// ---- Samples in a given state -----------------------------------------------------------------

type SampleValues = Partial<typeof samples.$inferInsert>;

/**
 * Inserts a sample owned by `owner` straight into the database, in whatever status and assignment
 * the test needs (`{ status: 'analysis', assignedStaffId: staff.id }`). Files and history are not
 * made; submit over HTTP (`submitSample`) when the test needs those.
 */
export async function insertSample(
  db: DbOrTx,
  owner: { id: number; email: string; firstName?: string | null; lastName?: string | null },
  values: SampleValues = {},
) {
  const name = [owner.firstName, owner.lastName].filter(Boolean).join(' ') || 'Sample Owner';
  const [row] = await db
    .insert(samples)
    .values({
      userId: owner.id,
      submitterName: name,
      submitterEmail: owner.email,
      itemName: 'Silver teapot',
      category: 'furniture-decorative',
      description: 'A test item.',
      ...values,
    })
    .returning();
  if (!row) throw new Error('sample not inserted');
  return row;
}

// ---- Reports ---------------------------------------------------------------------------------

/** One report element with nothing but a name and a percentage unless `extra` says more. */
export const element = (
  name: string,
  percentage: number,
  extra: Partial<ReportElementInput> = {},
): ReportElementInput => ({ element: name, percentage, purity: null, quality: null, notes: null, ...extra });

/** Issues (or re-issues) a sample's report through the staff endpoint; throws unless it answers 200. */
export function issueReport(
  t: { url: string },
  sampleId: number,
  token: string,
  elements: readonly ReportElementInput[] = [element('Silver', 92.5)],
): Promise<IssueReportResponse> {
  return callOk<IssueReportResponse>(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
    token,
    json: { elements },
  });
}

/** A complete valuation report (docs/product/valuation-report.md) showing `photoIds`, with an empty element table. */
export function valuationReport(
  photoIds: number[] = [],
  changes: Partial<IssueReportInput> = {},
): IssueReportInput {
  return {
    elements: [],
    valuation: {
      low: 12_000,
      high: 18_000,
      currency: 'GBP',
      valueType: 'insurance-replacement',
      effectiveDate: '2026-03-14',
      basis: '<p>Comparable sales at auction, 2024–2026.</p>',
    },
    authenticity: {
      verdict: 'authentic',
      rationale: '<p>Signature and canvas consistent with the period.</p>',
    },
    condition: { grade: 'very-good', notes: '<p>Minor craquelure, no losses.</p>' },
    identification: {
      maker: 'John Constable (attributed)',
      period: 'c. 1820',
      origin: 'Suffolk, England',
      marks: 'Signed lower left "J.C."',
      dimensions: '35 × 45 cm',
      materials: 'Oil on canvas',
    },
    summary: '<p>A landscape in good order, consistent with the attribution.</p>',
    photoIds,
    assignment: appraisalAssignment(),
    comparables: [],
    revalueBy: '2029-03-14',
    taxAppraisal: null,
    ...changes,
  };
}

/**
 * An appraisal's assignment as issuing stores and answers it (already clean; every optional part
 * given, so the answer equals what was sent).
 */
export function appraisalAssignment(changes: Partial<AssignmentInput> = {}): AssignmentInput {
  return {
    intendedUse: 'To set the sum insured under a fine-art insurance policy.',
    intendedUsers: 'The client and their insurer',
    valueDefinition:
      '<p>Insurance replacement value: the cost of replacing the item with one of similar age, quality and condition in the retail market within a reasonable time.</p>',
    propertyInterest: 'full-ownership',
    propertyInterestOther: null,
    inspection: 'in-person-and-laboratory',
    inspectionDate: '2026-03-10',
    scopeOfWork:
      '<p>Examined the painting in the laboratory under raking and ultraviolet light; searched auction records 2021–2026 for comparable works.</p>',
    extraordinaryAssumptions: '<p>The provenance documents supplied by the client are genuine.</p>',
    hypotheticalConditions: null,
    limitingConditions: '<p>Valid only for the intended use and users named in this report.</p>',
    ...changes,
  };
}

/** A comparable sale as the editor sends it (price in major units). */
export function comparableSale(i = 1, changes: Partial<ComparableInput> = {}): ComparableInput {
  return {
    description: `Landscape with a mill, oil on canvas, 34 × 44 cm (${i})`,
    source: i % 2 ? "Christie's London" : 'Artnet price database',
    saleDate: `2025-${String(((i - 1) % 12) + 1).padStart(2, '0')}-15`,
    price: 10_000 + i * 1_250,
    currency: i % 3 === 0 ? 'USD' : 'GBP',
    lotUrl: `https://auctions.example.com/lot/${1000 + i}`,
    notes: 'Similar size and period; slightly weaker condition.',
    photoFileId: null,
    ...changes,
  };
}
