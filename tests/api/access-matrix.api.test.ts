import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactInquiries,
  mailOutbox,
  reportRevisions,
  samples,
  users,
  webhookDeliveries,
  webhooks,
} from '../../server/db/schema';
import { newReportCode } from '../../server/modules/reports/report-code';
import {
  DOCUMENT_PDF as PDF,
  fileForm,
  insertSample,
  PHOTO_JPEG as JPEG,
  PHOTO_PNG as PNG,
  submissionForm,
} from '../support/factories';
import type { Role } from '../../common/domain/roles';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../common/domain/api-keys';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../support/test-app';

// docs/product/roles-and-access.md as a table: EVERY API call and /Uploads path × {anonymous,
// customer A, customer B, staff assigned, staff not assigned, admin}. The routes are read from the
// running app, so a new route without a row here fails the suite. Every guarded row is also run with
// an expired token and with a deactivated account's token, which must both get 401.

const PERSONAS = ['anonymous', 'customerA', 'customerB', 'staffAssigned', 'staffOther', 'admin'] as const;
type Persona = (typeof PERSONAS)[number];
type Expect = Record<Persona, number>;
/**
 * An API key of customer A or of the admin, holding only one scope or every scope but one
 * (docs/product/partners.md): `key:admin:only:samples:read`, `key:customerA:allBut:none`.
 */
type KeyCaller = `key:${'customerA' | 'admin'}:${'only' | 'allBut'}:${ApiKeyScope | 'none'}`;
/** A persona of the table, an admin whose token has expired or whose account was deactivated, or a key. */
type Caller = Persona | 'expiredAdmin' | 'deactivatedAdmin' | KeyCaller;

const all = (status: number): Expect => Object.fromEntries(PERSONAS.map((p) => [p, status])) as Expect;
const signedIn = (status: number): Expect => ({ ...all(status), anonymous: 401 });
const adminOnly = (status: number): Expect => ({ ...all(403), anonymous: 401, admin: status });
const labOnly = (status: number): Expect => ({
  anonymous: 401,
  customerA: 403,
  customerB: 403,
  staffAssigned: status,
  staffOther: status,
  admin: status,
});
/** Admins and the staff member the sample is assigned to. */
const assignedLab = (status: number): Expect => ({ ...labOnly(status), staffOther: 403 });

let t: TestApp;
const who = {} as Record<Exclude<Persona, 'anonymous'>, TestUser>;
const spoiled: Partial<Record<Caller, string>> = {};
const isPersona = (p: Caller): p is Exclude<Persona, 'anonymous'> => p !== 'anonymous' && p in who;
const token = (p: Caller) => (isPersona(p) ? who[p].token : spoiled[p]);
/** The key callers' keys, made once per owner and scope set. */
async function keyToken(caller: KeyCaller): Promise<void> {
  if (spoiled[caller]) return;
  const [, owner, kind, ...rest] = caller.split(':') as [string, 'customerA' | 'admin', string, ...string[]];
  const scope = rest.join(':');
  const scopes = kind === 'only' ? [scope] : API_KEY_SCOPES.filter((s) => s !== scope);
  const res = await call(t, 'POST', '/api/api-keys', {
    token: who[owner].token,
    json: { name: caller, scopes },
  });
  expect(res.status, res.text).toBe(201);
  spoiled[caller] = (res.body as { key: string }).key;
}
let apiKeyToRevoke: number;
/** Customer A's webhooks: one to delete, one with a delivery (its target is refused at delivery, so nothing leaves). */
let webhookToDelete: number;
let webhookWithLog: number;
let deliveryId: number;
const ownWebhookOnly = (status: number): Expect => ({
  ...signedIn(404),
  customerA: status,
  staffAssigned: 403,
  staffOther: 403,
});
const emailOf = (p: Caller) => (isPersona(p) ? who[p].email : 'x@example.com');
let sampleId: number;
let sampleFile: string;
/** What every issuing row sends: the elements and the sample's photo (so the public photo row has one). */
let reportBody: { elements: typeof elements; photoIds: number[] };
let photoIdReady: Promise<number> | undefined;
/** The sample's photo once its display copies exist (made in the background after the submission). */
function readyPhotoId(): Promise<number> {
  photoIdReady ??= (async () => {
    for (let i = 0; i < 250; i++) {
      const d = await call(t, 'GET', `/api/samples/${sampleId}`, { token: who.customerA.token });
      const photo = (d.body as { files: { id: number; thumbnailUrl: string | null }[] }).files[0];
      if (photo?.thumbnailUrl) return photo.id;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('photo copies were not made');
  })();
  return photoIdReady;
}
let reportCode: string;
let linkReady: Promise<number> | undefined;
/** A share link of customerA's report, made once (revoking it again is harmless). */
function shareLinkId(): Promise<number> {
  linkReady ??= call(t, 'POST', `/api/samples/${sampleId}/share-links`, {
    token: who.customerA.token,
    json: { expiresInDays: 1 },
  }).then((res) => (res.body as { id: number }).id);
  return linkReady;
}
let revokeCode: string;
let profileImage: string;
let signature: string;
let logo: string;
let inquiryId: number;
let outboxId: number;
let roleTarget: TestUser;
let counter = 0;

const elements = [
  { element: 'Silver', percentage: 92.5, purity: '925', quality: null, notes: '<p>Bright</p>' },
];

type Row = { expected: Expect; run(p: Caller): Promise<{ status: number; text?: string }> };

/** A fresh sample of customer A, assigned to the assigned staff member, with a quote sent (and accepted). */
async function quotedSample(accepted: boolean): Promise<number> {
  const sample = await insertSample(t.db, who.customerA, { assignedStaffId: who.staffAssigned.id });
  const validUntil = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const sent = await call(t, 'POST', `/api/staff/samples/${sample.id}/quote`, {
    token: who.admin.token,
    json: { lines: [{ description: 'Valuation', amount: 100 }], currency: 'EUR', validUntil },
  });
  expect(sent.status).toBe(201);
  if (accepted) {
    const yes = await call(t, 'POST', `/api/samples/${sample.id}/quote/accept`, {
      token: who.customerA.token,
    });
    expect(yes.status).toBe(200);
  }
  return sample.id;
}

/** A fresh sample of customer A with a first report the assigned staff member issued, awaiting review. */
async function awaitingReview(): Promise<number> {
  const sample = await insertSample(t.db, who.customerA, { assignedStaffId: who.staffAssigned.id });
  await t.db.insert(reportRevisions).values({
    sampleId: sample.id,
    reportCode: newReportCode(),
    revision: 1,
    storageKey: `reports/matrix-${sample.id}-draft.pdf`,
    sha256: '0'.repeat(64),
    byteSize: 0,
    issuedBy: who.staffAssigned.id,
    state: 'awaiting-review',
    elements: [{ element: 'Silver', percentage: 92.5, purity: null, quality: null, notes: null }],
  });
  return sample.id;
}

let locationReady: Promise<number> | undefined;
/** The matrix's storage location, made once by the admin. */
function matrixLocationId(): Promise<number> {
  locationReady ??= call(t, 'POST', '/api/admin/locations', {
    token: who.admin.token,
    json: { name: 'Matrix vault' },
  }).then((res) => (res.body as { id: number }).id);
  return locationReady;
}
const intakeBody = () => ({
  receivedAt: new Date().toISOString(),
  itemCount: 1,
  packaging: 'Box',
  conditionOnArrival: 'In good order',
});
/** A fresh sample of customer A, checked in at the desk by the admin. */
async function arrivedSample(): Promise<number> {
  const sample = await insertSample(t.db, who.customerA);
  const form = new FormData();
  form.append('intake', JSON.stringify({ ...intakeBody(), locationId: await matrixLocationId() }));
  const res = await call(t, 'POST', `/api/staff/samples/${sample.id}/intake`, {
    token: who.admin.token,
    form,
  });
  expect(res.status).toBe(200);
  return sample.id;
}

let collectionReady: Promise<number> | undefined;
/** Customer A's collection, made once. */
function matrixCollectionId(): Promise<number> {
  collectionReady ??= call(t, 'POST', '/api/collections', {
    token: who.customerA.token,
    json: { name: 'Matrix estate', purpose: 'estate-planning' },
  }).then((res) => (res.body as { id: number }).id);
  return collectionReady;
}

let scheduleReady: Promise<{ collectionId: number; code: string }> | undefined;
/** Customer A's collection whose one item has an issued report, with a schedule issued once. */
function matrixSchedule(): Promise<{ collectionId: number; code: string }> {
  scheduleReady ??= (async () => {
    const made = await call(t, 'POST', '/api/collections', {
      token: who.customerA.token,
      json: { name: 'Matrix schedule', purpose: 'insurance' },
    });
    const collectionId = (made.body as { id: number }).id;
    const code = newReportCode();
    const sample = await insertSample(t.db, who.customerA, {
      collectionId,
      reportCode: code,
      reportGenerated: true,
      reportGeneratedAt: new Date(),
    });
    await t.db.insert(reportRevisions).values({
      sampleId: sample.id,
      reportCode: code,
      revision: 1,
      storageKey: `reports/${code}-r1.pdf`,
      sha256: '0'.repeat(64),
      byteSize: 1,
    });
    const issued = await call(t, 'POST', `/api/staff/collections/${collectionId}/schedule`, {
      token: who.admin.token,
    });
    expect(issued.status, issued.text).toBe(200);
    return { collectionId, code: (issued.body as { scheduleCode: string }).scheduleCode };
  })();
  return scheduleReady;
}

/** Keyed by `METHOD path` exactly as the app prints its routes. */
const ROWS: Record<string, Row> = {
  'GET /api/staff/samples/:id/quote/draft': {
    expected: {
      anonymous: 401,
      customerA: 403,
      customerB: 403,
      staffAssigned: 200,
      staffOther: 403,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/staff/samples/${sampleId}/quote/draft`, { token: token(p) }),
  },
  'POST /api/staff/samples/:id/quote': {
    expected: {
      anonymous: 401,
      customerA: 403,
      customerB: 403,
      staffAssigned: 201,
      staffOther: 403,
      admin: 201,
    },
    run: async (p) => {
      const id = await quotedSample(false);
      return call(t, 'POST', `/api/staff/samples/${id}/quote`, {
        token: token(p),
        json: {
          lines: [{ description: 'Valuation', amount: '80.00' }],
          currency: 'EUR',
          validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        },
      });
    },
  },
  'POST /api/staff/samples/:id/quote/withdraw': {
    expected: {
      anonymous: 401,
      customerA: 403,
      customerB: 403,
      staffAssigned: 200,
      staffOther: 403,
      admin: 200,
    },
    run: async (p) =>
      call(t, 'POST', `/api/staff/samples/${await quotedSample(false)}/quote/withdraw`, { token: token(p) }),
  },
  'POST /api/samples/:id/quote/accept': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 403,
    },
    run: async (p) =>
      call(t, 'POST', `/api/samples/${await quotedSample(false)}/quote/accept`, { token: token(p) }),
  },
  'POST /api/samples/:id/quote/decline': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 403,
    },
    run: async (p) =>
      call(t, 'POST', `/api/samples/${await quotedSample(false)}/quote/decline`, {
        token: token(p),
        json: { reason: 'Matrix check' },
      }),
  },
  'GET /api/samples/:id/invoice': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: async (p) => call(t, 'GET', `/api/samples/${await quotedSample(true)}/invoice`, { token: token(p) }),
  },
  'POST /api/admin/samples/:id/paid': {
    expected: adminOnly(200),
    run: async (p) =>
      call(t, 'POST', `/api/admin/samples/${await quotedSample(true)}/paid`, {
        token: token(p),
        json: { reference: `BANK-${p}` },
      }),
  },
  'GET /api/health': { expected: all(200), run: (p) => call(t, 'GET', '/api/health', { token: token(p) }) },
  'GET /api/docs': { expected: all(200), run: () => call(t, 'GET', '/api/docs/') },
  'GET /api/docs/': { expected: all(200), run: () => call(t, 'GET', '/api/docs/') },
  'GET /api/docs/static/index.html': {
    expected: all(200),
    run: () => call(t, 'GET', '/api/docs/static/index.html'),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    expected: all(200),
    run: () => call(t, 'GET', '/api/docs/static/swagger-initializer.js'),
  },
  'GET /api/docs/*': { expected: all(200), run: () => call(t, 'GET', '/api/docs/static/swagger-ui.css') },
  'GET /api/docs/json': { expected: all(200), run: () => call(t, 'GET', '/api/docs/json') },
  'GET /api/docs/yaml': { expected: all(200), run: () => call(t, 'GET', '/api/docs/yaml') },
  'POST /login': {
    expected: all(200),
    run: (p) =>
      call(t, 'POST', '/login', {
        json: { email: roleTarget.email, password: roleTarget.password },
        token: token(p),
      }),
  },
  'POST /api/register': {
    expected: all(201),
    run: (p) =>
      call(t, 'POST', '/api/register', {
        token: token(p),
        json: {
          email: `reg${++counter}-${p}@example.com`,
          password: 'long-enough-1',
          firstName: 'R',
          lastName: 'M',
        },
      }),
  },
  'GET /api/auth/user': {
    expected: signedIn(200),
    run: (p) => call(t, 'GET', '/api/auth/user', { token: token(p) }),
  },
  'PUT /api/users/profile': {
    expected: signedIn(200),
    run: (p) => {
      const form = new FormData();
      form.append('profile', JSON.stringify({ email: emailOf(p) }));
      return call(t, 'PUT', '/api/users/profile', { token: token(p), form });
    },
  },
  'GET /api/admin/users': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/users', { token: token(p) }),
  },
  'POST /api/admin/users/:id/role': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/users/${roleTarget.id}/role`, { token: token(p), json: { role: 'user' } }),
  },
  'GET /api/admin/samples': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/samples', { token: token(p) }),
  },
  'GET /api/admin/samples.csv': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/samples.csv?status=submitted', { token: token(p) }),
  },
  'GET /api/staff/samples/counts': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/samples/counts', { token: token(p) }),
  },
  'POST /api/admin/samples/:id/assign': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/samples/${sampleId}/assign`, {
        token: token(p),
        json: { staffId: who.staffAssigned.id },
      }),
  },
  'GET /api/admin/analytics': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/analytics', { token: token(p) }),
  },
  'GET /api/admin/contact-inquiries': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/contact-inquiries', { token: token(p) }),
  },
  'GET /api/admin/contact-inquiries.csv': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/contact-inquiries.csv', { token: token(p) }),
  },
  'POST /api/admin/contact-inquiries/:id/status': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/contact-inquiries/${inquiryId}/status`, {
        token: token(p),
        json: { status: 'pending' },
      }),
  },
  'POST /api/auth/forgot-password': {
    expected: all(202),
    run: (p) =>
      call(t, 'POST', '/api/auth/forgot-password', { token: token(p), json: { email: roleTarget.email } }),
  },
  // Public: the mailed token is the credential (a wrong one is 400 for everybody).
  'POST /api/auth/reset-password': {
    expected: all(400),
    run: (p) =>
      call(t, 'POST', '/api/auth/reset-password', {
        token: token(p),
        json: { token: 'not-a-real-reset-token-at-all', password: 'another-long-pw' },
      }),
  },
  'POST /api/auth/verify-email': {
    expected: all(400),
    run: (p) =>
      call(t, 'POST', '/api/auth/verify-email', {
        token: token(p),
        json: { token: 'not-a-real-verify-token' },
      }),
  },
  'POST /api/auth/verify-email/resend': {
    expected: signedIn(202),
    run: (p) => call(t, 'POST', '/api/auth/verify-email/resend', { token: token(p) }),
  },
  'PUT /api/users/password': {
    expected: signedIn(400),
    run: (p) =>
      call(t, 'PUT', '/api/users/password', {
        token: token(p),
        json: { currentPassword: 'not-the-password', newPassword: 'another-long-pw' },
      }),
  },
  'PUT /api/users/preferences': {
    expected: signedIn(200),
    run: (p) =>
      call(t, 'PUT', '/api/users/preferences', { token: token(p), json: { notifyStatusChanges: true } }),
  },
  // A second token of the persona's account: logging it out leaves the persona's own token alive.
  'POST /api/auth/logout': {
    expected: signedIn(204),
    run: async (p) =>
      call(t, 'POST', '/api/auth/logout', {
        token: isPersona(p)
          ? await t.app.deps.tokens.sign({ id: who[p].id, role: who[p].role as Role })
          : token(p),
      }),
  },
  // Every token of a throw-away account of the persona's role ends.
  'POST /api/auth/logout-all': {
    expected: signedIn(204),
    run: async (p) =>
      call(t, 'POST', '/api/auth/logout-all', {
        token: isPersona(p) ? (await createUser(t, { role: who[p].role as Role })).token : token(p),
      }),
  },
  // Two-factor sign-in: any signed-in person may set it up for their own account only.
  'POST /api/auth/2fa/totp/setup': {
    expected: signedIn(200),
    run: (p) =>
      call(t, 'POST', '/api/auth/2fa/totp/setup', {
        token: token(p),
        json: { password: isPersona(p) ? who[p].password : 'not-the-password' },
      }),
  },
  'POST /api/auth/2fa/totp/enable': {
    expected: signedIn(400),
    run: (p) =>
      call(t, 'POST', '/api/auth/2fa/totp/enable', {
        token: token(p),
        json: { code: 'abcdef', password: isPersona(p) ? who[p].password : 'not-the-password' },
      }),
  },
  // New recovery codes need the password and two-factor sign-in on: a wrong password is 400 for all.
  'POST /api/auth/2fa/recovery-codes': {
    expected: signedIn(400),
    run: (p) =>
      call(t, 'POST', '/api/auth/2fa/recovery-codes', {
        token: token(p),
        json: { password: 'not-the-password' },
      }),
  },
  // Public: the pending sign-in token is the credential (a wrong one is 401 for everybody).
  'POST /api/auth/2fa/verify': {
    expected: all(401),
    run: (p) =>
      call(t, 'POST', '/api/auth/2fa/verify', {
        token: token(p),
        json: { mfaToken: 'not-a-pending-sign-in', code: '123456' },
      }),
  },
  'POST /api/auth/2fa/disable': {
    expected: signedIn(400),
    run: (p) =>
      call(t, 'POST', '/api/auth/2fa/disable', {
        token: token(p),
        json: { password: 'not-the-password', code: '123456' },
      }),
  },
  // Another account's two-factor sign-in, on for the call (a fresh account with a key set).
  'POST /api/admin/users/:id/2fa/reset': {
    expected: adminOnly(200),
    run: async (p) => {
      const target = await createUser(t);
      await t.db.update(users).set({ totpSecret: 'v1.placeholder' }).where(eq(users.id, target.id));
      return call(t, 'POST', `/api/admin/users/${target.id}/2fa/reset`, { token: token(p) });
    },
  },
  'POST /api/admin/users/:id/active': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/users/${roleTarget.id}/active`, {
        token: token(p),
        json: { isActive: true },
      }),
  },
  'POST /api/admin/contact-inquiries/:id/reply': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/contact-inquiries/${inquiryId}/reply`, {
        token: token(p),
        json: { message: 'Thank you, we are open 9-5.' },
      }),
  },
  'GET /api/admin/mail/outbox': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/mail/outbox', { token: token(p) }),
  },
  'GET /api/admin/mail/outbox/:id': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', `/api/admin/mail/outbox/${outboxId}`, { token: token(p) }),
  },
  'POST /api/admin/mail/outbox/:id/retry': {
    expected: adminOnly(200),
    run: (p) => call(t, 'POST', `/api/admin/mail/outbox/${outboxId}/retry`, { token: token(p) }),
  },
  // The audit trail (docs/product/audit-trail.md): admins only.
  'GET /api/admin/audit': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/audit?subjectType=sample', { token: token(p) }),
  },
  'GET /api/admin/audit.csv': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/audit.csv?action=auth.signed_in', { token: token(p) }),
  },
  'GET /api/admin/audit/verify': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/audit/verify', { token: token(p) }),
  },
  // Public: the signed link is the credential.
  'POST /api/mail/unsubscribe': {
    expected: all(200),
    run: (p) =>
      call(t, 'POST', '/api/mail/unsubscribe', {
        token: token(p),
        json: {
          token: new URL(t.app.deps.mailer.unsubscribeUrl(who.customerB.id)).searchParams.get('token'),
        },
      }),
  },
  'POST /api/admin/reports/:reportCode/revoke': {
    expected: adminOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/admin/reports/${revokeCode}/revoke`, {
        token: token(p),
        json: { reason: 'Matrix check' },
      }),
  },
  'GET /api/samples': {
    expected: signedIn(200),
    run: (p) => call(t, 'GET', '/api/samples', { token: token(p) }),
  },
  'POST /api/samples': {
    expected: signedIn(201),
    run: (p) => call(t, 'POST', '/api/samples', { token: token(p), form: submissionForm() }),
  },
  'GET /api/samples/:id': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/samples/${sampleId}`, { token: token(p) }),
  },
  'POST /api/samples/:id/report': {
    expected: {
      anonymous: 401,
      customerA: 403,
      customerB: 403,
      staffAssigned: 200,
      staffOther: 403,
      admin: 200,
    },
    run: (p) => call(t, 'POST', `/api/samples/${sampleId}/report`, { token: token(p), json: reportBody }),
  },
  // Share links and the verification log: the owner and admins; the lab may read the sample but not share it.
  'POST /api/samples/:id/share-links': {
    expected: {
      anonymous: 401,
      customerA: 201,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 201,
    },
    run: (p) =>
      call(t, 'POST', `/api/samples/${sampleId}/share-links`, {
        token: token(p),
        json: { expiresInDays: 7 },
      }),
  },
  'GET /api/samples/:id/share-links': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/samples/${sampleId}/share-links`, { token: token(p) }),
  },
  'DELETE /api/samples/:id/share-links/:linkId': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 200,
    },
    run: async (p) =>
      call(t, 'DELETE', `/api/samples/${sampleId}/share-links/${await shareLinkId()}`, { token: token(p) }),
  },
  'GET /api/samples/:id/verifications': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 403,
      staffOther: 403,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/samples/${sampleId}/verifications`, { token: token(p) }),
  },
  'GET /api/staff/samples': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/samples', { token: token(p) }),
  },
  'POST /api/staff/samples/:id/status': {
    expected: {
      anonymous: 401,
      customerA: 403,
      customerB: 403,
      staffAssigned: 200,
      staffOther: 403,
      admin: 200,
    },
    run: (p) =>
      call(t, 'POST', `/api/staff/samples/${sampleId}/status`, {
        token: token(p),
        json: { status: 'analysis', comment: `by ${p}` },
      }),
  },
  'POST /api/staff/samples/:id/report': {
    expected: assignedLab(200),
    run: (p) =>
      call(t, 'POST', `/api/staff/samples/${sampleId}/report`, { token: token(p), json: reportBody }),
  },
  'POST /api/staff/samples/:id/report/preview': {
    expected: assignedLab(200),
    run: (p) =>
      call(t, 'POST', `/api/staff/samples/${sampleId}/report/preview`, {
        token: token(p),
        json: { elements },
      }),
  },
  // The second review: a revision the assigned staff member issued waits; its author may not review it.
  'POST /api/staff/samples/:id/report/approve': {
    expected: { ...labOnly(200), staffAssigned: 403 },
    run: async (p) =>
      call(t, 'POST', `/api/staff/samples/${await awaitingReview()}/report/approve`, { token: token(p) }),
  },
  'POST /api/staff/samples/:id/report/reject': {
    expected: { ...labOnly(200), staffAssigned: 403 },
    run: async (p) =>
      call(t, 'POST', `/api/staff/samples/${await awaitingReview()}/report/reject`, {
        token: token(p),
        json: { comment: `Sent back by ${p}` },
      }),
  },
  'GET /api/staff/samples/:id/report/review': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'GET', `/api/staff/samples/${await awaitingReview()}/report/review`, { token: token(p) }),
  },
  'GET /api/staff/samples/:id/report/review/pdf': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'GET', `/api/staff/samples/${await awaitingReview()}/report/review/pdf`, { token: token(p) }),
  },
  'GET /api/staff/samples/:id/report/review-history': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'GET', `/api/staff/samples/${await awaitingReview()}/report/review-history`, {
        token: token(p),
      }),
  },
  'GET /api/staff/reviews': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/reviews', { token: token(p) }),
  },
  'GET /api/staff/report-defaults': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/report-defaults', { token: token(p) }),
  },
  'GET /api/report/:reportCode/pdf': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/report/${reportCode}/pdf`, { token: token(p) }),
  },
  'GET /api/reports/verify/:code': {
    expected: all(200),
    run: (p) => call(t, 'GET', `/api/reports/verify/${reportCode}`, { token: token(p) }),
  },
  'POST /api/reports/verify/:code/document': {
    expected: all(200),
    run: (p) =>
      call(t, 'POST', `/api/reports/verify/${reportCode}/document`, {
        token: token(p),
        form: fileForm('file', PDF, 'report.pdf', 'application/pdf'),
      }),
  },
  'GET /api/reports/verify/:code/credential': {
    expected: all(200),
    run: (p) => call(t, 'GET', `/api/reports/verify/${reportCode}/credential`, { token: token(p) }),
  },
  'POST /api/reports/verify-credential': {
    expected: all(200),
    run: async (p) => {
      const credential = (await call(t, 'GET', `/api/reports/verify/${reportCode}/credential`)).text;
      return call(t, 'POST', '/api/reports/verify-credential', { token: token(p), json: { credential } });
    },
  },
  // The keys behind signed PDFs and credentials are public by nature.
  'GET /.well-known/lab-root-ca.pem': {
    expected: all(200),
    run: (p) => call(t, 'GET', '/.well-known/lab-root-ca.pem', { token: token(p) }),
  },
  'GET /.well-known/jwks.json': {
    expected: all(200),
    run: (p) => call(t, 'GET', '/.well-known/jwks.json', { token: token(p) }),
  },
  'GET /api/lab/settings': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/lab/settings', { token: token(p) }),
  },
  'POST /api/lab/settings': {
    expected: adminOnly(200),
    run: (p) => {
      const form = new FormData();
      form.append('settings', JSON.stringify({ labName: 'Matrix Lab' }));
      return call(t, 'POST', '/api/lab/settings', { token: token(p), form });
    },
  },
  'POST /api/contact': {
    expected: all(201),
    run: (p) =>
      call(t, 'POST', '/api/contact', {
        token: token(p),
        json: {
          firstName: 'Con',
          lastName: 'Tact',
          email: 'contact@example.com',
          subject: 'general-inquiry',
          message: `Hello from ${p}`,
        },
      }),
  },
  // /Uploads/{fileName}: a sample's file follows the sample (never reveal: 404).
  'GET /Uploads/:fileName|:folder': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/Uploads/${sampleFile}`, { token: token(p) }),
  },
  // A photo's display copies follow the sample like its original (docs/product/photos.md).
  'GET /Uploads/photos/:id/:variant': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: async (p) =>
      call(t, 'GET', `/Uploads/photos/${await readyPhotoId()}/thumbnail`, { token: token(p) }),
  },
  // Public verification's photo links: no token, the report's code and one of the photos it shows.
  'GET /api/public/reports/:code/photos/:id': {
    expected: all(200),
    run: async (p) =>
      call(t, 'GET', `/api/public/reports/${reportCode}/photos/${await readyPhotoId()}`, { token: token(p) }),
  },
  // /Uploads/{profile|signature|logo}/{name}: three policies, one route; every persona × every folder.
  'GET /Uploads/:fileName|:folder/:name': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 404,
      staffOther: 404,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/Uploads/${profileImage}`, { token: token(p) }),
  },
  // API keys (docs/product/partners.md): customers and admins hold their own; staff none.
  'POST /api/api-keys': {
    expected: { ...signedIn(201), staffAssigned: 403, staffOther: 403 },
    run: (p) =>
      call(t, 'POST', '/api/api-keys', { token: token(p), json: { name: 'm', scopes: ['samples:read'] } }),
  },
  'GET /api/api-keys': {
    expected: { ...signedIn(200), staffAssigned: 403, staffOther: 403 },
    run: (p) => call(t, 'GET', '/api/api-keys', { token: token(p) }),
  },
  // Only one's own key: customer A revokes theirs, everyone else is told it does not exist.
  'DELETE /api/api-keys/:id': {
    expected: { ...signedIn(404), customerA: 200, staffAssigned: 403, staffOther: 403 },
    run: (p) => call(t, 'DELETE', `/api/api-keys/${apiKeyToRevoke}`, { token: token(p) }),
  },
  // Webhooks (docs/product/partners.md): customers and admins, each their own endpoints.
  'POST /api/webhooks': {
    expected: { ...signedIn(201), staffAssigned: 403, staffOther: 403 },
    run: (p) =>
      call(t, 'POST', '/api/webhooks', {
        token: token(p),
        json: { url: 'https://93.184.216.34/hook', events: ['sample.received'] },
      }),
  },
  'GET /api/webhooks': {
    expected: { ...signedIn(200), staffAssigned: 403, staffOther: 403 },
    run: (p) => call(t, 'GET', '/api/webhooks', { token: token(p) }),
  },
  'DELETE /api/webhooks/:id': {
    expected: ownWebhookOnly(200),
    run: (p) => call(t, 'DELETE', `/api/webhooks/${webhookToDelete}`, { token: token(p) }),
  },
  'GET /api/webhooks/:id/deliveries': {
    expected: ownWebhookOnly(200),
    run: (p) => call(t, 'GET', `/api/webhooks/${webhookWithLog}/deliveries`, { token: token(p) }),
  },
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': {
    expected: ownWebhookOnly(200),
    run: (p) =>
      call(t, 'POST', `/api/webhooks/${webhookWithLog}/deliveries/${deliveryId}/redeliver`, {
        token: token(p),
      }),
  },
  'POST /api/webhooks/:id/test': {
    expected: ownWebhookOnly(201),
    run: (p) => call(t, 'POST', `/api/webhooks/${webhookWithLog}/test`, { token: token(p) }),
  },
  // Collections (docs/product/collections.md): everyone keeps their own; the owner fills theirs; the
  // lab reads every one; another customer is told it does not exist.
  'POST /api/collections': {
    expected: signedIn(201),
    run: (p) =>
      call(t, 'POST', '/api/collections', { token: token(p), json: { name: 'Mine', purpose: 'insurance' } }),
  },
  'GET /api/collections': {
    expected: signedIn(200),
    run: (p) => call(t, 'GET', '/api/collections', { token: token(p) }),
  },
  'GET /api/collections/:id': {
    expected: { ...signedIn(200), customerB: 404 },
    run: async (p) => call(t, 'GET', `/api/collections/${await matrixCollectionId()}`, { token: token(p) }),
  },
  'POST /api/collections/:id/samples': {
    expected: { ...signedIn(403), customerA: 200, customerB: 404 },
    run: async (p) => {
      const sample = await insertSample(t.db, who.customerA);
      return call(t, 'POST', `/api/collections/${await matrixCollectionId()}/samples`, {
        token: token(p),
        json: { sampleIds: [sample.id] },
      });
    },
  },
  // Schedules (docs/product/schedules.md): the lab issues; whoever reads the collection downloads;
  // anyone verifies the code (no value) and fetches its credential.
  'POST /api/staff/collections/:id/schedule': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'POST', `/api/staff/collections/${(await matrixSchedule()).collectionId}/schedule`, {
        token: token(p),
      }),
  },
  'GET /api/collections/:id/schedule': {
    expected: { ...signedIn(200), customerB: 404 },
    run: async (p) =>
      call(t, 'GET', `/api/collections/${(await matrixSchedule()).collectionId}/schedule`, {
        token: token(p),
      }),
  },
  'GET /api/collections/:id/schedule/pdf': {
    expected: { ...signedIn(200), customerB: 404 },
    run: async (p) =>
      call(t, 'GET', `/api/collections/${(await matrixSchedule()).collectionId}/schedule/pdf`, {
        token: token(p),
      }),
  },
  'GET /api/schedules/verify/:code': {
    expected: all(200),
    run: async (p) =>
      call(t, 'GET', `/api/schedules/verify/${(await matrixSchedule()).code}`, { token: token(p) }),
  },
  'GET /api/schedules/verify/:code/credential': {
    expected: all(200),
    run: async (p) =>
      call(t, 'GET', `/api/schedules/verify/${(await matrixSchedule()).code}/credential`, {
        token: token(p),
      }),
  },
  'POST /api/collections/:id/import': {
    expected: { ...signedIn(403), customerA: 201, customerB: 404 },
    run: async (p) => {
      const form = new FormData();
      const csv = `submitterName,submitterEmail,itemName,category,description,expertValuation,photos\nA,a@example.com,Vase,other,A vase,true,vase-${p}.jpg`;
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'estate.csv');
      form.append('photos', new Blob([new Uint8Array(JPEG)], { type: 'image/jpeg' }), `vase-${p}.jpg`);
      return call(t, 'POST', `/api/collections/${await matrixCollectionId()}/import`, {
        token: token(p),
        form,
      });
    },
  },
  // Custody (docs/product/custody.md): staff and admins handle the item; admins manage locations.
  'POST /api/staff/samples/:id/intake': {
    expected: labOnly(200),
    run: async (p) => {
      const sample = await insertSample(t.db, who.customerA);
      const form = new FormData();
      form.append('intake', JSON.stringify(intakeBody()));
      return call(t, 'POST', `/api/staff/samples/${sample.id}/intake`, { token: token(p), form });
    },
  },
  'POST /api/staff/samples/:id/custody': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'POST', `/api/staff/samples/${await arrivedSample()}/custody`, {
        token: token(p),
        json: { event: 'to-expert' },
      }),
  },
  'POST /api/staff/samples/:id/return': {
    expected: labOnly(200),
    run: async (p) =>
      call(t, 'POST', `/api/staff/samples/${await arrivedSample()}/return`, {
        token: token(p),
        json: { method: 'courier', carrier: 'DHL', trackingNumber: `JD-${p}` },
      }),
  },
  'GET /api/staff/samples/:id/label': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', `/api/staff/samples/${sampleId}/label`, { token: token(p) }),
  },
  'GET /api/samples/:id/custody': {
    expected: {
      anonymous: 401,
      customerA: 200,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 200,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/api/samples/${sampleId}/custody`, { token: token(p) }),
  },
  'GET /api/admin/locations': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/locations', { token: token(p) }),
  },
  'POST /api/admin/locations': {
    expected: adminOnly(201),
    run: (p) =>
      call(t, 'POST', '/api/admin/locations', { token: token(p), json: { name: `Shelf ${++counter} ${p}` } }),
  },
  'PATCH /api/admin/locations/:id': {
    expected: adminOnly(200),
    run: async (p) =>
      call(t, 'PATCH', `/api/admin/locations/${await matrixLocationId()}`, {
        token: token(p),
        json: { description: `Checked by ${p}` },
      }),
  },
  'GET /api/staff/inventory': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/inventory', { token: token(p) }),
  },
  'GET /api/staff/experts': {
    expected: labOnly(200),
    run: (p) => call(t, 'GET', '/api/staff/experts', { token: token(p) }),
  },
};

/** Sub-rows for the folders sharing the `/Uploads/:folder/:name` route. */
const UPLOAD_FOLDER_ROWS: Record<string, Row> = {
  'GET /Uploads/signature/:name': {
    expected: {
      anonymous: 401,
      customerA: 404,
      customerB: 404,
      staffAssigned: 200,
      staffOther: 404,
      admin: 200,
    },
    run: (p) => call(t, 'GET', `/Uploads/${signature}`, { token: token(p) }),
  },
  // The logo: staff and admins; a customer is told 404 like any file they may not read.
  'GET /Uploads/logo/:name': {
    expected: { ...labOnly(200), customerA: 404, customerB: 404 },
    run: (p) => call(t, 'GET', `/Uploads/${logo}`, { token: token(p) }),
  },
};

/**
 * Variants of a route whose answer depends on what is sent. They run after every other row: an
 * uploaded signature replaces the one the /Uploads/signature row reads.
 */
const VARIANT_ROWS: Record<string, Row> = {
  'GET /api/admin/users?role=staff': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/users?role=staff', { token: token(p) }),
  },
  // The Staff tab's search and paging (docs/product/api.md): still for the admin alone.
  'GET /api/admin/users?search&page': {
    expected: adminOnly(200),
    run: (p) => call(t, 'GET', '/api/admin/users?search=a&page=1&pageSize=10', { token: token(p) }),
  },
  // A signature is printed on reports: only the people who issue them may upload one.
  'PUT /api/users/profile with a signature': {
    expected: { ...labOnly(200), customerA: 403, customerB: 403 },
    run: (p) =>
      call(t, 'PUT', '/api/users/profile', {
        token: token(p),
        form: fileForm('signature', PNG, 's.png', 'image/png', {
          profile: JSON.stringify({ email: emailOf(p), firstName: 'Matrix' }),
        }),
      }),
  },
};

/**
 * Every call a key may make, with what the key's owner's key gets when it differs from the owner's
 * own row above (the key runs after the owners, so a call that changed state answers differently).
 */
const KEY_ROWS: Record<string, Partial<Expect>> = {
  'GET /api/samples': {},
  'POST /api/samples': {},
  'GET /api/samples/:id': {},
  'GET /api/admin/samples': {},
  'POST /api/staff/samples/:id/status': {},
  'GET /api/report/:reportCode/pdf': {},
  'POST /api/webhooks': {},
  'GET /api/webhooks': {},
  // Customer A's key runs after customer A deleted that endpoint.
  'DELETE /api/webhooks/:id': { customerA: 404 },
  'GET /api/webhooks/:id/deliveries': {},
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': {},
  'POST /api/webhooks/:id/test': {},
  'POST /api/collections': {},
  'GET /api/collections': {},
  'GET /api/collections/:id': {},
  'POST /api/collections/:id/samples': {},
  'GET /api/collections/:id/schedule': {},
  'GET /api/collections/:id/schedule/pdf': {},
  'POST /api/collections/:id/import': {},
};

/** `METHOD path` for every route the app serves (HEAD is fastify's automatic twin of GET). */
function routesOf(printed: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round((at - 1) / 4);
    const m = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 3));
    if (!m) continue;
    const path = (stack[depth - 1] ?? '') + (m[1] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[2] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      if (method !== 'HEAD') out.push(`${method} ${path}`);
  }
  return [...new Set(out)].sort();
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' });
  [who.customerA, who.customerB, who.staffAssigned, who.staffOther, who.admin, roleTarget] =
    await Promise.all([
      createUser(t),
      createUser(t),
      createUser(t, { role: 'staff' }),
      createUser(t, { role: 'staff' }),
      createUser(t, { role: 'admin' }),
      createUser(t),
    ]);
  const created = await call(t, 'POST', '/api/samples', {
    token: who.customerA.token,
    form: submissionForm(),
  });
  expect(created.status).toBe(201);
  sampleId = (created.body as { id: number }).id;
  await t.db.update(samples).set({ assignedStaffId: who.staffAssigned.id }).where(eq(samples.id, sampleId));
  const detail = await call(t, 'GET', `/api/samples/${sampleId}`, { token: who.customerA.token });
  const firstFile = (detail.body as { files: { id: number; fileName: string }[] }).files[0];
  sampleFile = firstFile?.fileName ?? '';
  reportBody = { elements, photoIds: firstFile ? [firstFile.id] : [] };
  const issued = await call(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
    token: who.admin.token,
    json: reportBody,
  });
  expect(issued.status).toBe(200);
  reportCode = (issued.body as { reportCode: string }).reportCode;

  const other = await call(t, 'POST', '/api/samples', { token: who.customerA.token, form: submissionForm() });
  const otherId = (other.body as { id: number }).id;
  const revokable = await call(t, 'POST', `/api/staff/samples/${otherId}/report`, {
    token: who.admin.token,
    json: { elements },
  });
  revokeCode = (revokable.body as { reportCode: string }).reportCode;

  const pictureForm = fileForm('profileImage', JPEG, 'me.jpg', 'image/jpeg', {
    profile: JSON.stringify({ email: who.customerA.email }),
  });
  const pic = await call(t, 'PUT', '/api/users/profile', { token: who.customerA.token, form: pictureForm });
  expect(pic.status).toBe(200);
  profileImage = String((pic.body as { profileImageUrl: string }).profileImageUrl).replace(
    /^\/?Uploads\//,
    '',
  );
  const sigForm = fileForm('signature', PNG, 'sig.png', 'image/png', {
    profile: JSON.stringify({ email: who.staffAssigned.email }),
  });
  const sig = await call(t, 'PUT', '/api/users/profile', { token: who.staffAssigned.token, form: sigForm });
  expect(sig.status).toBe(200);
  signature = String((sig.body as { signature: string }).signature).replace(/^\/?Uploads\//, '');
  const logoForm = fileForm('logo', PNG, 'logo.png', 'image/png', {
    settings: JSON.stringify({ labName: 'Matrix Lab' }),
  });
  const lab = await call(t, 'POST', '/api/lab/settings', { token: who.admin.token, form: logoForm });
  expect(lab.status).toBe(200);
  logo = String((lab.body as { logo: string }).logo).replace(/^\/?Uploads\//, '');
  const [inquiry] = await t.db
    .insert(contactInquiries)
    .values({
      firstName: 'I',
      lastName: 'Q',
      email: 'iq@example.com',
      subject: 'general-inquiry',
      message: 'Hi',
    })
    .returning();
  inquiryId = inquiry?.id ?? 0;

  const expiring = await createUser(t, { role: 'admin' });
  spoiled.expiredAdmin = await t.app.deps.tokens.sign({ id: expiring.id, role: 'admin' }, -1);
  spoiled.deactivatedAdmin = (await createUser(t, { role: 'admin', isActive: false })).token;
  const keyToRevoke = await call(t, 'POST', '/api/api-keys', {
    token: who.customerA.token,
    json: { name: 'to revoke', scopes: ['samples:read'] },
  });
  apiKeyToRevoke = (keyToRevoke.body as { id: number }).id;
  const hooks = await t.db
    .insert(webhooks)
    .values(
      [1, 2].map(() => ({
        userId: who.customerA.id,
        url: 'http://10.0.0.1/hook',
        events: ['sample.received'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      })),
    )
    .returning();
  webhookToDelete = hooks[0]?.id ?? 0;
  webhookWithLog = hooks[1]?.id ?? 0;
  const [delivery] = await t.db
    .insert(webhookDeliveries)
    .values({ webhookId: webhookWithLog, messageId: 'msg_matrix', event: 'webhook.test', body: '{}' })
    .returning();
  deliveryId = delivery?.id ?? 0;
  const [mail] = await t.db.select({ id: mailOutbox.id }).from(mailOutbox).limit(1);
  outboxId = mail?.id ?? 0;
  expect(outboxId).toBeGreaterThan(0);
});
afterAll(async () => {
  await t?.close();
});

describe('access matrix (docs/product/roles-and-access.md)', () => {
  it('has a row for every route the app serves, and no row for a route that does not exist', () => {
    const served = routesOf(t.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(20);
    const missing = served.filter((r) => !(r in ROWS));
    expect(missing, 'routes without an access-matrix row').toEqual([]);
    const stale = Object.keys(ROWS).filter((r) => !served.includes(r));
    expect(stale, 'matrix rows for routes that no longer exist').toEqual([]);
  });

  it('has its fixtures', () => {
    expect(sampleFile).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(profileImage).toMatch(/^profile\//);
    expect(signature).toMatch(/^signature\//);
    expect(logo).toMatch(/^logo\//);
    expect(reportCode).not.toBe(revokeCode);
  });

  const everything = { ...ROWS, ...UPLOAD_FOLDER_ROWS, ...VARIANT_ROWS };
  for (const [route, row] of Object.entries(everything)) {
    it(route, async () => {
      const got: Record<string, number> = {};
      // Admin last: its calls change state (revocation) that other personas' rows rely on.
      for (const p of PERSONAS) {
        const res = await row.run(p);
        got[p] = res.status;
        if (res.status >= 500) throw new Error(`${route} as ${p}: ${res.status} ${res.text ?? ''}`);
      }
      expect(got).toEqual(row.expected);
    });
  }

  // The key column (docs/product/partners.md): a call that names a scope answers a key holding that
  // scope as it answers the key's owner, and 403 to a key holding every other scope; every other
  // guarded call answers every key 403. The scopes are read from the served OpenAPI document.
  it('answers API keys by the scope each call names, and 403 to every key on every other call', async () => {
    const doc = (await call(t, 'GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, { 'x-api-key-scope'?: ApiKeyScope }>>;
    };
    const scopeOf = (route: string): ApiKeyScope | undefined => {
      const [method = '', path = ''] = route.split(' ');
      const openapiPath = path.replace(/:([A-Za-z]+)/g, '{$1}');
      return doc.paths[openapiPath]?.[method.toLowerCase()]?.['x-api-key-scope'];
    };
    const scoped = Object.keys(ROWS).filter((r) => scopeOf(r));
    expect(scoped.sort(), 'calls open to keys').toEqual(Object.keys(KEY_ROWS).sort());
    for (const [route, row] of Object.entries(everything)) {
      // Guarded calls only (a public call that answers everyone 401 by itself says nothing of keys).
      if (row.expected.anonymous !== 401 || Object.values(row.expected).every((s) => s === 401)) continue;
      const scope = scopeOf(route) ?? 'none';
      for (const owner of ['customerA', 'admin'] as const) {
        const caller: KeyCaller = `key:${owner}:allBut:${scope}`;
        await keyToken(caller);
        expect((await row.run(caller)).status, `${route} with ${caller}`).toBe(403);
      }
    }
    for (const route of scoped) {
      const scope = scopeOf(route) as ApiKeyScope;
      const row = ROWS[route] as Row;
      const expected = { ...row.expected, ...KEY_ROWS[route] };
      for (const owner of ['customerA', 'admin'] as const) {
        const caller: KeyCaller = `key:${owner}:only:${scope}`;
        await keyToken(caller);
        expect((await row.run(caller)).status, `${route} with ${caller}`).toBe(expected[owner]);
      }
    }
  });

  it('answers 401 to every guarded call made with an expired token or by a deactivated account', async () => {
    const guarded = Object.entries(everything).filter(([, row]) => row.expected.anonymous === 401);
    expect(guarded.length).toBeGreaterThan(20);
    for (const [route, row] of guarded) {
      for (const caller of ['expiredAdmin', 'deactivatedAdmin'] as const) {
        expect((await row.run(caller)).status, `${route} as ${caller}`).toBe(401);
      }
    }
  });
});
