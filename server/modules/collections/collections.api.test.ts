import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionDetail, CollectionListItem } from '../../../common/contracts/collections';
import { auditEvents, collections, reportRevisions, samples } from '../../db/schema';
import { newReportCode } from '../reports/report-code';
import {
  insertSample,
  submissionFields,
  submissionForm,
  submitSample,
} from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Collections (docs/product/collections.md): a customer groups their own samples; the owner, staff
// and admins read a collection with each item's status, custody and issued value; nobody else
// learns it exists. On both databases.

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' }, { runJobs: false });
  [owner, other, staff, admin] = await Promise.all([
    createUser(t, { firstName: 'Edith', lastName: 'Crawley' }),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t?.close());

async function newCollection(as: TestUser, name = 'Estate of Violet Crawley', purpose = 'estate-planning') {
  const res = await call(t, 'POST', '/api/collections', { token: as.token, json: { name, purpose } });
  expect(res.status, res.text).toBe(201);
  return res.body as CollectionDetail;
}

const detail = async (id: number, as: TestUser) =>
  call(t, 'GET', `/api/collections/${id}`, { token: as.token });

/** Marks the sample's report issued with a valuation (stored in minor units, as issuing stores it). */
async function issueWithValue(sampleId: number, highMinor: number, currency = 'GBP') {
  const code = newReportCode();
  await t.db.insert(reportRevisions).values({
    sampleId,
    reportCode: code,
    revision: 1,
    storageKey: `reports/${code}-r1.pdf`,
    sha256: '0'.repeat(64),
    byteSize: 1,
    issuedBy: staff.id,
    content: {
      valuation: {
        low: null,
        high: highMinor,
        currency,
        valueType: 'insurance-replacement',
        effectiveDate: '2026-11-01',
        basis: null,
      },
      authenticity: null,
      condition: null,
      identification: null,
      summary: null,
      photoIds: [],
    },
  });
  await t.db
    .update(samples)
    .set({ reportCode: code, reportGenerated: true, reportGeneratedAt: new Date() })
    .where(eq(samples.id, sampleId));
  return code;
}

describe('making and listing collections', () => {
  it('makes an empty collection (201) and records it; lists only the caller’s own, newest first', async () => {
    const first = await newCollection(owner, '  Household silver  ', 'insurance');
    expect(first).toMatchObject({
      name: 'Household silver',
      purpose: 'insurance',
      progress: { total: 0, reported: 0 },
      owner: { id: owner.id, firstName: 'Edith', lastName: 'Crawley' },
      items: [],
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'collection.created'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event).toMatchObject({
      actorId: owner.id,
      subjectType: 'collection',
      subjectId: String(first.id),
      after: { name: 'Household silver', purpose: 'insurance' },
    });
    const second = await newCollection(owner, 'Clocks');
    await newCollection(other, 'Not yours');
    const list = await call(t, 'GET', '/api/collections', { token: owner.token });
    expect(list.status).toBe(200);
    const names = (list.body as CollectionListItem[]).map((c) => c.name);
    expect(names.slice(0, 2)).toEqual(['Clocks', 'Household silver']);
    expect(names).not.toContain('Not yours');
    expect((list.body as CollectionListItem[])[0]?.id).toBe(second.id);
  });

  it('lists each collection with its own progress', async () => {
    const full = await newCollection(owner, 'Three pieces');
    const empty = await newCollection(owner, 'Nothing yet');
    const pieces = await Promise.all([1, 2, 3].map(() => insertSample(t.db, owner)));
    await call(t, 'POST', `/api/collections/${full.id}/samples`, {
      token: owner.token,
      json: { sampleIds: pieces.map((p) => p.id) },
    });
    await issueWithValue(pieces[0]?.id ?? 0, 100);
    const list = (await call(t, 'GET', '/api/collections', { token: owner.token }))
      .body as CollectionListItem[];
    expect(list.find((c) => c.id === full.id)?.progress).toEqual({ total: 3, reported: 1 });
    expect(list.find((c) => c.id === empty.id)?.progress).toEqual({ total: 0, reported: 0 });
  });

  it('refuses a missing name or an unknown purpose with 400 and the field, storing nothing', async () => {
    const before = (await t.db.select().from(collections)).length;
    const noName = await call(t, 'POST', '/api/collections', {
      token: owner.token,
      json: { name: '   ', purpose: 'insurance' },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({
      message: 'Collection name is required',
      errors: [{ path: 'name', message: 'Collection name is required' }],
    });
    const badPurpose = await call(t, 'POST', '/api/collections', {
      token: owner.token,
      json: { name: 'X', purpose: 'bragging' },
    });
    expect(badPurpose.status).toBe(400);
    expect(badPurpose.body).toMatchObject({
      errors: [{ path: 'purpose', message: 'Please choose a purpose' }],
    });
    const tooLong = await call(t, 'POST', '/api/collections', {
      token: owner.token,
      json: { name: 'x'.repeat(256), purpose: 'insurance' },
    });
    expect(tooLong.status).toBe(400);
    expect((await t.db.select().from(collections)).length).toBe(before);
  });
});

describe('adding samples', () => {
  it('adds the owner’s samples; the detail shows status, custody and progress; repeating is harmless', async () => {
    const c = await newCollection(owner);
    const a = await insertSample(t.db, owner, { itemName: 'Regency card table', status: 'analysis' });
    const b = await insertSample(t.db, owner, { itemName: 'Bracket clock' });
    const res = await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [b.id, a.id, a.id] },
    });
    expect(res.status, res.text).toBe(200);
    const body = res.body as CollectionDetail;
    expect(body.progress).toEqual({ total: 2, reported: 0 });
    expect(body.items.map((i) => i.id)).toEqual([a.id, b.id]);
    expect(body.items[0]).toMatchObject({
      displayId: `VAL-${String(a.id).padStart(4, '0')}`,
      itemName: 'Regency card table',
      status: 'analysis',
      custody: { state: 'awaiting-arrival', location: null },
      reportCode: null,
      value: null,
    });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'collection.samples_added'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event).toMatchObject({ subjectId: String(c.id), after: { sampleIds: [a.id, b.id] } });

    const again = await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [a.id] },
    });
    expect(again.status).toBe(200);
    expect((again.body as CollectionDetail).progress.total).toBe(2);
  });

  it('refuses someone else’s sample with 404 and adds none of the others (all or none)', async () => {
    const c = await newCollection(owner);
    const mine = await insertSample(t.db, owner);
    const theirs = await insertSample(t.db, other);
    const res = await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [mine.id, theirs.id] },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Sample not found' });
    const missing = await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [mine.id, 2_000_000_000] },
    });
    expect(missing.status).toBe(404);
    const [row] = await t.db.select().from(samples).where(eq(samples.id, mine.id));
    expect(row?.collectionId).toBeNull();
  });

  it('keeps a sample in at most one collection: 409 naming the other collection', async () => {
    const first = await newCollection(owner, 'First');
    const second = await newCollection(owner, 'Second');
    const s = await insertSample(t.db, owner);
    expect(
      (
        await call(t, 'POST', `/api/collections/${first.id}/samples`, {
          token: owner.token,
          json: { sampleIds: [s.id] },
        })
      ).status,
    ).toBe(200);
    const res = await call(t, 'POST', `/api/collections/${second.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [s.id] },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: `VAL-${String(s.id).padStart(4, '0')} is already in the collection "First"`,
    });
  });

  it('refuses an empty or malformed list with 400', async () => {
    const c = await newCollection(owner);
    for (const json of [{ sampleIds: [] }, { sampleIds: ['x'] }, {}]) {
      const res = await call(t, 'POST', `/api/collections/${c.id}/samples`, { token: owner.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    const empty = await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [] },
    });
    expect(empty.body).toMatchObject({ message: 'Choose at least one sample' });
  });
});

describe('who may read and fill a collection', () => {
  it('another customer gets 404 for reading and filling; staff and admins read (200) but may not fill (403)', async () => {
    const c = await newCollection(owner);
    const s = await insertSample(t.db, owner);
    const theirs = await insertSample(t.db, other);
    expect((await detail(c.id, other)).status).toBe(404);
    expect((await detail(c.id, other)).body).toEqual({ message: 'Collection not found' });
    const fill = (as: TestUser, id: number) =>
      call(t, 'POST', `/api/collections/${c.id}/samples`, { token: as.token, json: { sampleIds: [id] } });
    expect((await fill(other, theirs.id)).status).toBe(404);
    expect((await fill(staff, s.id)).status).toBe(403);
    expect((await fill(admin, s.id)).status).toBe(403);
    expect((await detail(c.id, staff)).status).toBe(200);
    expect((await detail(c.id, admin)).status).toBe(200);
    expect((await detail(999_999, owner)).status).toBe(404);
    expect((await call(t, 'GET', `/api/collections/${c.id}`)).status).toBe(401);
  });

  it('shows the issued value to the owner and the lab, none for a withdrawn report; progress counts issued reports', async () => {
    const c = await newCollection(owner);
    const valued = await insertSample(t.db, owner, { itemName: 'Silver salver' });
    const withdrawn = await insertSample(t.db, owner, { itemName: 'Pocket watch' });
    const pending = await insertSample(t.db, owner, { itemName: 'Oil sketch' });
    await call(t, 'POST', `/api/collections/${c.id}/samples`, {
      token: owner.token,
      json: { sampleIds: [valued.id, withdrawn.id, pending.id] },
    });
    const code = await issueWithValue(valued.id, 1_850_050);
    await issueWithValue(withdrawn.id, 90_000);
    await t.db
      .update(samples)
      .set({ reportRevokedAt: new Date(), reportRevokedReason: 'Wrong item' })
      .where(eq(samples.id, withdrawn.id));

    for (const reader of [owner, staff, admin]) {
      const res = await detail(c.id, reader);
      expect(res.status).toBe(200);
      const body = res.body as CollectionDetail;
      expect(body.progress).toEqual({ total: 3, reported: 1 });
      const [v, w, p] = body.items;
      expect(v).toMatchObject({
        reportCode: code,
        reportRevoked: false,
        value: {
          low: null,
          high: 18_500.5,
          currency: 'GBP',
          valueType: 'insurance-replacement',
          effectiveDate: '2026-11-01',
        },
      });
      expect(w).toMatchObject({ reportRevoked: true, value: null });
      expect(p).toMatchObject({ reportCode: null, value: null });
    }
  });
});

describe('"Add to collection…" at submission', () => {
  it('puts the new sample in the submitter’s own collection', async () => {
    const c = await newCollection(owner);
    const id = await submitSample(t, owner.token, { ...submissionFields(), collectionId: String(c.id) });
    const [row] = await t.db.select().from(samples).where(eq(samples.id, id));
    expect(row?.collectionId).toBe(c.id);
    expect(((await detail(c.id, owner)).body as CollectionDetail).items.map((i) => i.id)).toEqual([id]);
  });

  it('refuses another customer’s collection with 404 and a malformed one with 400, storing no sample', async () => {
    const theirs = await newCollection(other);
    const count = async () => (await t.db.select().from(samples).where(eq(samples.userId, owner.id))).length;
    const before = await count();
    const foreign = await call(t, 'POST', '/api/samples', {
      token: owner.token,
      form: submissionForm({ ...submissionFields(), collectionId: String(theirs.id) }),
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Collection not found' });
    const malformed = await call(t, 'POST', '/api/samples', {
      token: owner.token,
      form: submissionForm({ ...submissionFields(), collectionId: 'abc' }),
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errors: [{ path: 'collectionId' }] });
    expect(await count()).toBe(before);
  });

  it('an empty field means no collection', async () => {
    const id = await submitSample(t, owner.token, { ...submissionFields(), collectionId: '' });
    const [row] = await t.db.select().from(samples).where(eq(samples.id, id));
    expect(row?.collectionId).toBeNull();
  });
});
