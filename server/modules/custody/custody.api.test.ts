import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustodyEventEntry, Inventory, StorageLocation } from '../../../common/contracts/custody';
import type { Sample, SampleDetail } from '../../../common/contracts/samples';
import {
  auditEvents,
  custodyEvents,
  jobs,
  mailOutbox,
  sampleFiles,
  samples,
  sampleStatusHistory,
  users,
  webhookDeliveries,
  webhooks,
} from '../../db/schema';
import {
  insertSample,
  PHOTO_JPEG,
  submissionFields,
  submissionForm,
  submitSample,
} from '../../../tests/support/factories';
import { displaySampleId } from '../../../common/domain/samples';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { callOk } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Custody of the physical item (docs/product/custody.md) on both databases: every transition, the
// refusals, who may do what, what the owner sees, the mails and the label decoded by a real reader.

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;
let stranger: TestUser;
let vault: StorageLocation;
let shelf: StorageLocation;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, owner, stranger] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Eleanor', lastName: 'Vance' }),
    createUser(t, { role: 'user', firstName: 'Olivia', lastName: 'Hartley' }),
    createUser(t, { role: 'user' }),
  ]);
  vault = await callOk<StorageLocation>(t, 'POST', '/api/admin/locations', {
    token: admin.token,
    json: { name: 'Vault A', description: 'Fire-rated safe, basement' },
  });
  shelf = await callOk<StorageLocation>(t, 'POST', '/api/admin/locations', {
    token: admin.token,
    json: { name: 'Shelf 3' },
  });
});
afterAll(async () => {
  await t?.close();
});

const newSample = () => insertSample(t.db, owner, { itemName: 'Georgian silver teapot' });

function intakeForm(intake: Record<string, unknown>, photos: Buffer[] = []) {
  const form = new FormData();
  form.append('intake', JSON.stringify(intake));
  photos.forEach((bytes, i) =>
    form.append('photos', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `arrival-${i}.jpg`),
  );
  return form;
}

const goodIntake = (changes: Record<string, unknown> = {}) => ({
  receivedAt: '2026-03-03T10:15:00Z',
  itemCount: 1,
  packaging: 'Double box, bubble wrap',
  conditionOnArrival: 'In good order',
  locationId: vault.id,
  ...changes,
});

const intake = (id: number, body: Record<string, unknown>, token = staff.token, photos: Buffer[] = []) =>
  call(t, 'POST', `/api/staff/samples/${id}/intake`, { token, form: intakeForm(body, photos) });

const history = async (id: number, token: string) =>
  (await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${id}/custody`, { token })).map((e) => e.event);

const mailsTo = (email: string) =>
  t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(mailOutbox.id);

describe('custody state on every sample answer', () => {
  it('a new sample awaits arrival, since its submission, in the owner list, the detail, the work lists', async () => {
    const s = await newSample();
    const detail = await callOk<SampleDetail>(t, 'GET', `/api/samples/${s.id}`, { token: owner.token });
    expect(detail.custody).toEqual({
      state: 'awaiting-arrival',
      location: null,
      since: s.submissionDate.toISOString(),
    });
    const mine = await callOk<{ id: number; custody: unknown }[]>(t, 'GET', '/api/samples', {
      token: owner.token,
    });
    expect(mine.find((r) => r.id === s.id)?.custody).toEqual(detail.custody);
    for (const path of ['/api/admin/samples', '/api/staff/samples']) {
      const rows = await callOk<{ id: number; custody: { state: string } }[]>(t, 'GET', path, {
        token: admin.token,
      });
      expect(rows.find((r) => r.id === s.id)?.custody.state).toBe('awaiting-arrival');
    }
  });
});

describe('intake', () => {
  it('checks the item in with arrival photos: in storage at the location, photos in the pipeline, owner mailed', async () => {
    const s = await newSample();
    const res = await intake(s.id, goodIntake(), staff.token, [PHOTO_JPEG, PHOTO_JPEG]);
    expect(res.status).toBe(200);
    const body = res.body as Sample;
    expect(body.custody).toEqual({
      state: 'in-storage',
      location: { id: vault.id, name: 'Vault A' },
      since: '2026-03-03T10:15:00.000Z',
    });
    // The arrival photos are photos of the sample, each with its display-copies job, tied to the intake.
    const files = await t.db.select().from(sampleFiles).where(eq(sampleFiles.sampleId, s.id));
    expect(files).toHaveLength(2);
    const [event] = await t.db.select().from(custodyEvents).where(eq(custodyEvents.sampleId, s.id));
    expect(files.every((f) => f.custodyEventId === event?.id && f.fileCategory === 'photo')).toBe(true);
    const photoJobs = await t.db.select().from(jobs).where(eq(jobs.queue, 'photo-copies'));
    for (const f of files)
      expect(photoJobs.some((j) => (j.payload as { fileId: number }).fileId === f.id)).toBe(true);
    // The staff history shows the whole event; the owner gets the arrival without the lab's location.
    const lab = await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${s.id}/custody`, {
      token: admin.token,
    });
    expect(lab).toHaveLength(1);
    expect(lab[0]).toMatchObject({
      event: 'received',
      state: 'in-storage',
      at: '2026-03-03T10:15:00.000Z',
      location: { id: vault.id, name: 'Vault A' },
      by: { id: staff.id, firstName: 'Eleanor', lastName: 'Vance' },
      itemCount: 1,
      packaging: 'Double box, bubble wrap',
      conditionOnArrival: 'In good order',
      photoIds: files.map((f) => f.id).sort((a, b) => a - b),
    });
    const mine = await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${s.id}/custody`, {
      token: owner.token,
    });
    expect(mine[0]).toMatchObject({ event: 'received', location: null, by: null, note: null });
    expect(mine[0]?.conditionOnArrival).toBe('In good order');
    // The owner's sample answer carries the state but not the shelf.
    const detail = await callOk<SampleDetail>(t, 'GET', `/api/samples/${s.id}`, { token: owner.token });
    expect(detail.custody.state).toBe('in-storage');
    expect(detail.custody.location).toBeNull();
    const mails = (await mailsTo(owner.email)).filter((m) => m.kind === 'itemArrived');
    const mail = mails.find((m) => m.subject.includes(`VAL-${String(s.id).padStart(4, '0')}`));
    expect(mail?.subject).toMatch(/^Your item has arrived/);
    expect(mail?.text).toContain('March 3, 2026');
    expect(mail?.text).toContain('In good order');
  });

  it('without a location the item stays at the desk: received', async () => {
    const s = await newSample();
    const res = await intake(s.id, goodIntake({ locationId: null }), admin.token);
    expect(res.status).toBe(200);
    expect((res.body as Sample).custody).toMatchObject({ state: 'received', location: null });
  });

  it("tells the owner's webhooks subscribed to sample.received, in the intake's transaction", async () => {
    const s = await newSample();
    const [hook] = await t.db
      .insert(webhooks)
      .values({
        userId: owner.id,
        url: 'https://93.184.216.34/hook',
        events: ['sample.received'],
        secret: 'whsec_x',
      })
      .returning();
    const deliveries = () =>
      t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook!.id));
    expect(await deliveries()).toHaveLength(0);
    expect((await intake(s.id, goodIntake())).status).toBe(200);
    const [delivery, ...more] = await deliveries();
    expect(more).toHaveLength(0);
    expect(delivery?.event).toBe('sample.received');
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: 'sample.received',
      data: { sampleId: s.id, displayId: displaySampleId(s.id), itemName: 'Georgian silver teapot' },
    });
    // A refused second intake queues nothing more.
    expect((await intake(s.id, goodIntake())).status).toBe(409);
    expect(await deliveries()).toHaveLength(1);
  });

  it('a second intake is 409 and writes nothing', async () => {
    const s = await newSample();
    expect((await intake(s.id, goodIntake())).status).toBe(200);
    const before = await t.db.select().from(mailOutbox);
    const again = await intake(s.id, goodIntake({ conditionOnArrival: 'Scratched' }), staff.token, [
      PHOTO_JPEG,
    ]);
    expect(again.status).toBe(409);
    expect((again.body as { message: string }).message).toBe('This item has already been checked in');
    expect(await t.db.select().from(custodyEvents).where(eq(custodyEvents.sampleId, s.id))).toHaveLength(1);
    expect(await t.db.select().from(sampleFiles).where(eq(sampleFiles.sampleId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(mailOutbox)).toHaveLength(before.length);
    // The refused photo was not left in storage either.
    const stored = readdirSync(join(t.filesDir, 'uploads'));
    const known = (await t.db.select({ f: sampleFiles.fileName }).from(sampleFiles)).map((r) => r.f);
    expect(stored.filter((f) => !known.includes(f))).toEqual([]);
  });

  it('refuses bad input with the field and nothing written', async () => {
    const s = await newSample();
    const cases: [Record<string, unknown>, string, string][] = [
      [goodIntake({ receivedAt: 'yesterday' }), 'receivedAt', 'Enter the date and time the item arrived'],
      [
        goodIntake({ receivedAt: '2999-01-01T00:00:00Z' }),
        'receivedAt',
        'The arrival cannot be in the future',
      ],
      [goodIntake({ itemCount: 0 }), 'itemCount', 'Enter how many pieces arrived (1 to 999)'],
      [goodIntake({ itemCount: 'two' }), 'itemCount', 'Enter how many pieces arrived (1 to 999)'],
      [goodIntake({ packaging: '  ' }), 'packaging', 'Describe the packaging'],
      [
        goodIntake({ conditionOnArrival: undefined }),
        'conditionOnArrival',
        'Describe the condition on arrival',
      ],
      [goodIntake({ locationId: 999_999 }), 'locationId', 'This location does not exist'],
    ];
    for (const [body, path, message] of cases) {
      const res = await intake(s.id, body, staff.token, [PHOTO_JPEG]);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { errors: { path: string; message: string }[] }).errors).toContainEqual({
        path,
        message,
      });
    }
    const noPart = new FormData();
    noPart.append('photos', new Blob([new Uint8Array(PHOTO_JPEG)], { type: 'image/jpeg' }), 'a.jpg');
    expect(
      (await call(t, 'POST', `/api/staff/samples/${s.id}/intake`, { token: staff.token, form: noPart }))
        .status,
    ).toBe(400);
    const notJson = new FormData();
    notJson.append('intake', '{not json');
    expect(
      (await call(t, 'POST', `/api/staff/samples/${s.id}/intake`, { token: staff.token, form: notJson }))
        .status,
    ).toBe(400);
    expect(
      (await call(t, 'POST', `/api/staff/samples/${s.id}/intake`, { token: staff.token, json: goodIntake() }))
        .status,
    ).toBe(400);
    // A file that is not a photo: 415.
    const pdf = new FormData();
    pdf.append('intake', JSON.stringify(goodIntake()));
    pdf.append('photos', new Blob([new TextEncoder().encode('%PDF-1.4 not a photo')]), 'x.jpg');
    expect(
      (await call(t, 'POST', `/api/staff/samples/${s.id}/intake`, { token: staff.token, form: pdf })).status,
    ).toBe(415);
    const [row] = await t.db.select().from(samples).where(eq(samples.id, s.id));
    expect(row?.custodyState).toBe('awaiting-arrival');
    expect(await t.db.select().from(custodyEvents).where(eq(custodyEvents.sampleId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(sampleFiles).where(eq(sampleFiles.sampleId, s.id))).toHaveLength(0);
  });

  it('an unknown sample is 404', async () => {
    expect((await intake(2_000_000, goodIntake())).status).toBe(404);
  });
});

describe('locations', () => {
  it('lists, renames (the items there follow), retires (keeps history, takes no new items)', async () => {
    const loc = await callOk<StorageLocation>(t, 'POST', '/api/admin/locations', {
      token: admin.token,
      json: { name: 'Photo studio' },
    });
    expect(loc).toMatchObject({ name: 'Photo studio', description: null, retired: false, itemCount: 0 });
    const dup = await call(t, 'POST', '/api/admin/locations', {
      token: admin.token,
      json: { name: 'PHOTO STUDIO' },
    });
    expect(dup.status).toBe(409);
    expect(
      (await call(t, 'POST', '/api/admin/locations', { token: admin.token, json: { name: ' ' } })).status,
    ).toBe(400);
    const s = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake({ locationId: loc.id })),
    });
    const renamed = await callOk<StorageLocation>(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
      token: admin.token,
      json: { name: 'Studio 1', description: 'North light' },
    });
    expect(renamed).toMatchObject({ name: 'Studio 1', description: 'North light', itemCount: 1 });
    const seen = await callOk<SampleDetail>(t, 'GET', `/api/samples/${s.id}`, { token: staff.token });
    expect(seen.custody.location).toEqual({ id: loc.id, name: 'Studio 1' });
    expect(
      (
        await call(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
          token: admin.token,
          json: { name: 'vault a' },
        })
      ).status,
    ).toBe(409);

    const retired = await callOk<StorageLocation>(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
      token: admin.token,
      json: { retired: true },
    });
    expect(retired.retired).toBe(true);
    expect(retired.retiredAt).not.toBeNull();
    // History and the item there stay; no new item goes there.
    expect(await history(s.id, staff.token)).toEqual(['received']);
    const other = await newSample();
    const refused = await intake(other.id, goodIntake({ locationId: loc.id }));
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe(
      'This location is retired and takes no new items',
    );
    const move = await call(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
      token: staff.token,
      json: { event: 'moved', locationId: loc.id },
    });
    expect(move.status).toBe(409);
    const list = await callOk<StorageLocation[]>(t, 'GET', '/api/admin/locations', { token: staff.token });
    expect(list.at(-1)?.id).toBe(loc.id);
    expect(
      (await call(t, 'PATCH', '/api/admin/locations/999999', { token: admin.token, json: { retired: true } }))
        .status,
    ).toBe(404);
  });
});

describe('moves and returns', () => {
  it('every transition: received → stored → expert → moved with the expert → storage → returned by courier', async () => {
    const s = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake({ locationId: null })),
    });
    const move = (json: Record<string, unknown>, token = staff.token) =>
      call(t, 'POST', `/api/staff/samples/${s.id}/custody`, { token, json });
    const stored = await move({ event: 'moved', locationId: shelf.id });
    expect((stored.body as Sample).custody).toMatchObject({
      state: 'in-storage',
      location: { name: 'Shelf 3' },
    });
    const expert = await move({ event: 'to-expert', note: 'For the hallmark study' });
    expect((expert.body as Sample).custody).toMatchObject({ state: 'with-expert', location: null });
    const studio = await move({ event: 'moved', locationId: vault.id }, admin.token);
    expect((studio.body as Sample).custody).toMatchObject({
      state: 'with-expert',
      location: { name: 'Vault A' },
    });
    const back = await move({ event: 'to-storage', locationId: shelf.id });
    expect((back.body as Sample).custody).toMatchObject({
      state: 'in-storage',
      location: { name: 'Shelf 3' },
    });
    // Refused moves: no location where one is needed, an unknown event.
    expect((await move({ event: 'to-storage' })).status).toBe(400);
    expect((await move({ event: 'moved', locationId: null })).status).toBe(400);
    expect((await move({ event: 'teleported', locationId: shelf.id })).status).toBe(400);

    const ret = await call(t, 'POST', `/api/staff/samples/${s.id}/return`, {
      token: staff.token,
      json: {
        method: 'courier',
        carrier: 'DHL Express',
        trackingNumber: 'JD014600003828',
        insuredValue: '2500',
        currency: 'gbp',
        note: 'Signed for on collection',
      },
    });
    expect(ret.status).toBe(200);
    expect((ret.body as Sample).custody).toMatchObject({ state: 'returned', location: null });
    const lab = await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${s.id}/custody`, {
      token: staff.token,
    });
    expect(lab.map((e) => [e.event, e.state])).toEqual([
      ['received', 'received'],
      ['moved', 'in-storage'],
      ['to-expert', 'with-expert'],
      ['moved', 'with-expert'],
      ['to-storage', 'in-storage'],
      ['returned', 'returned'],
    ]);
    expect(lab[2]?.note).toBe('For the hallmark study');
    expect(lab[5]).toMatchObject({
      carrier: 'DHL Express',
      trackingNumber: 'JD014600003828',
      insuredValue: 2500,
      insuredCurrency: 'GBP',
      note: 'Signed for on collection',
    });
    // The owner sees the arrival and the return only, without the lab's notes.
    const mine = await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${s.id}/custody`, {
      token: owner.token,
    });
    expect(mine.map((e) => e.event)).toEqual(['received', 'returned']);
    expect(mine[1]).toMatchObject({ trackingNumber: 'JD014600003828', note: null, by: null });
    const mail = (await mailsTo(owner.email)).find(
      (m) => m.kind === 'itemReturned' && m.subject.includes(`VAL-${String(s.id).padStart(4, '0')}`),
    );
    expect(mail?.subject).toMatch(/^Your item is on its way back/);
    expect(mail?.text).toContain('JD014600003828');
    expect(mail?.text).toContain('DHL Express');
    expect(mail?.text).toContain('£2,500.00');
    // Once it left, no move and no second return.
    expect((await move({ event: 'to-expert' })).status).toBe(409);
    const twice = await call(t, 'POST', `/api/staff/samples/${s.id}/return`, {
      token: staff.token,
      json: { method: 'collected', collectedBy: 'Olivia Hartley', idChecked: true },
    });
    expect(twice.status).toBe(409);
    expect((twice.body as { message: string }).message).toBe('This item has already left the lab');
  });

  it('collected in person: who and "ID checked" are required; the owner is mailed', async () => {
    const s = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake()),
    });
    const ret = (json: Record<string, unknown>) =>
      call(t, 'POST', `/api/staff/samples/${s.id}/return`, { token: admin.token, json });
    const noId = await ret({ method: 'collected', collectedBy: 'Olivia Hartley' });
    expect(noId.status).toBe(400);
    expect((noId.body as { errors: unknown[] }).errors).toContainEqual({
      path: 'idChecked',
      message: 'Confirm that you checked their identity document',
    });
    expect((await ret({ method: 'collected', idChecked: true })).status).toBe(400);
    expect((await ret({ method: 'courier', carrier: 'DHL' })).status).toBe(400);
    expect(
      (
        await ret({
          method: 'courier',
          carrier: 'DHL',
          trackingNumber: 'X1',
          insuredValue: '12.345',
          currency: 'EUR',
        })
      ).status,
    ).toBe(400);
    expect(
      (await ret({ method: 'courier', carrier: 'DHL', trackingNumber: 'X1', insuredValue: '10' })).status,
    ).toBe(400);
    expect((await ret({ method: 'post' })).status).toBe(400);
    const ok = await ret({ method: 'collected', collectedBy: 'Olivia Hartley', idChecked: true });
    expect(ok.status).toBe(200);
    expect((ok.body as Sample).custody.state).toBe('collected');
    const mine = await callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${s.id}/custody`, {
      token: owner.token,
    });
    expect(mine.map((e) => e.event)).toEqual(['received', 'collected']);
    expect(mine[1]).toMatchObject({ collectedBy: 'Olivia Hartley', idChecked: true });
    const mail = (await mailsTo(owner.email)).find(
      (m) => m.kind === 'itemCollected' && m.subject.includes(`VAL-${String(s.id).padStart(4, '0')}`),
    );
    expect(mail?.text).toContain('Olivia Hartley');
  });

  it('a hand-over names its expert: the one chosen, else the assigned expert, else whoever records it', async () => {
    const expertB = await createUser(t, { role: 'staff', firstName: 'Marcus', lastName: 'Bell' });
    const s = await insertSample(t.db, owner, { itemName: 'Meissen figurine', assignedStaffId: staff.id });
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: admin.token,
      form: intakeForm(goodIntake()),
    });
    const move = (json: Record<string, unknown>, token = admin.token) =>
      call(t, 'POST', `/api/staff/samples/${s.id}/custody`, { token, json });
    // No expert named: the assigned one, even when an admin records it.
    expect((await move({ event: 'to-expert' })).status).toBe(200);
    // Named: that person.
    expect((await move({ event: 'to-expert', expertId: expertB.id, locationId: shelf.id })).status).toBe(200);
    // Refused, nothing written: a customer, an unknown id, an inactive member, an expert on a plain move.
    const inactive = await createUser(t, { role: 'staff', firstName: 'Gone', lastName: 'Away' });
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    for (const expertId of [owner.id, 2_000_000_000, inactive.id]) {
      const refused = await move({ event: 'to-expert', expertId });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        errors: [{ path: 'expertId', message: 'Choose an active staff member or admin' }],
      });
    }
    const plain = await move({ event: 'moved', locationId: vault.id, expertId: expertB.id });
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({
      errors: [{ path: 'expertId', message: 'An expert is named only when handing the item to an expert' }],
    });
    // Unassigned: whoever records the hand-over holds the item.
    const u = await insertSample(t.db, owner, { itemName: 'Unassigned clock' });
    await callOk(t, 'POST', `/api/staff/samples/${u.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake()),
    });
    await callOk(t, 'POST', `/api/staff/samples/${u.id}/custody`, {
      token: expertB.token,
      json: { event: 'to-expert' },
    });

    const history = async (id: number, token: string) =>
      callOk<CustodyEventEntry[]>(t, 'GET', `/api/samples/${id}/custody`, { token });
    const lab = await history(s.id, staff.token);
    expect(lab.map((e) => [e.event, e.expert?.name ?? null])).toEqual([
      ['received', null],
      ['to-expert', 'Eleanor Vance'],
      ['to-expert', 'Marcus Bell'],
    ]);
    expect(lab[1]?.expert?.id).toBe(staff.id);
    expect(lab[2]?.location?.name).toBe('Shelf 3');
    expect((await history(u.id, staff.token)).at(-1)?.expert).toEqual({
      id: expertB.id,
      name: 'Marcus Bell',
    });
    // The owner never sees who in the lab holds their item.
    const mine = await history(s.id, owner.token);
    expect(mine.every((e) => e.expert === null)).toBe(true);
    // The audit trail records the expert of each hand-over.
    const audited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'sample'), eq(auditEvents.subjectId, String(s.id))))
      .orderBy(asc(auditEvents.id));
    expect(
      audited
        .filter((a) => a.action === 'custody.to_expert')
        .map((a) => (a.after as { expertName?: string }).expertName),
    ).toEqual(['Eleanor Vance', 'Marcus Bell']);
  });

  it('lists who an item can be handed to: active staff and admins, for staff and admins only', async () => {
    const list = await callOk<{ id: number; name: string }[]>(t, 'GET', '/api/staff/experts', {
      token: staff.token,
    });
    expect(list.find((e) => e.id === staff.id)?.name).toBe('Eleanor Vance');
    expect(list.some((e) => e.id === admin.id)).toBe(true);
    expect(list.some((e) => e.id === owner.id)).toBe(false);
    expect((await call(t, 'GET', '/api/staff/experts', { token: owner.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/experts')).status).toBe(401);
  });

  it('returning or moving an item that never arrived is 409, and writes nothing', async () => {
    const s = await newSample();
    const ret = await call(t, 'POST', `/api/staff/samples/${s.id}/return`, {
      token: staff.token,
      json: { method: 'courier', carrier: 'DHL', trackingNumber: 'JD1' },
    });
    expect(ret.status).toBe(409);
    expect((ret.body as { message: string }).message).toBe('This item has not arrived at the lab');
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
          token: staff.token,
          json: { event: 'to-expert' },
        })
      ).status,
    ).toBe(409);
    expect(await t.db.select().from(custodyEvents).where(eq(custodyEvents.sampleId, s.id))).toHaveLength(0);
  });
});

describe('who may do what', () => {
  it('customers cannot touch custody; a stranger cannot read a history; anonymous is 401', async () => {
    const s = await newSample();
    expect((await intake(s.id, goodIntake(), owner.token)).status).toBe(403);
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
          token: owner.token,
          json: { event: 'to-expert' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(t, 'POST', `/api/staff/samples/${s.id}/return`, {
          token: owner.token,
          json: { method: 'collected', collectedBy: 'Me', idChecked: true },
        })
      ).status,
    ).toBe(403);
    expect((await call(t, 'GET', `/api/staff/samples/${s.id}/label`, { token: owner.token })).status).toBe(
      403,
    );
    expect((await call(t, 'GET', `/api/samples/${s.id}/custody`, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await call(t, 'GET', `/api/samples/${s.id}/custody`)).status).toBe(401);
    expect(
      (await call(t, 'POST', '/api/admin/locations', { token: staff.token, json: { name: 'Mine' } })).status,
    ).toBe(403);
    expect(
      (
        await call(t, 'PATCH', `/api/admin/locations/${shelf.id}`, {
          token: staff.token,
          json: { retired: true },
        })
      ).status,
    ).toBe(403);
    expect((await call(t, 'GET', '/api/admin/locations', { token: owner.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/inventory', { token: owner.token })).status).toBe(403);
  });
});

describe('declared value', () => {
  it('is stored with its currency, shown on the sample, and checked', async () => {
    const created = await submitSample(
      t,
      owner.token,
      submissionFields({ declaredValue: '1250.50', declaredCurrency: 'eur' }),
    );
    const detail = await callOk<SampleDetail>(t, 'GET', `/api/samples/${created}`, { token: staff.token });
    expect(detail).toMatchObject({ declaredValue: 1250.5, declaredCurrency: 'EUR' });
    const none = await submitSample(t, owner.token);
    expect(
      (await callOk<SampleDetail>(t, 'GET', `/api/samples/${none}`, { token: staff.token })).declaredValue,
    ).toBeNull();
    for (const [changes, path] of [
      [{ declaredValue: '1000' }, 'declaredCurrency'],
      [{ declaredValue: 'lots', declaredCurrency: 'EUR' }, 'declaredValue'],
      [{ declaredValue: '-5', declaredCurrency: 'EUR' }, 'declaredValue'],
      [{ declaredValue: '10', declaredCurrency: 'XYZ' }, 'declaredCurrency'],
    ] as const) {
      const res = await call(t, 'POST', '/api/samples', {
        token: owner.token,
        form: submissionForm(submissionFields(changes)),
      });
      expect(res.status, JSON.stringify(changes)).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
    }
  });
});

describe('inventory', () => {
  it('lists what is in the lab by location and state, days there, and flags items held too long after completion', async () => {
    const held = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${held.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake({ receivedAt: new Date(Date.now() - 40 * 86_400_000).toISOString() })),
    });
    await t.db.update(samples).set({ status: 'completed' }).where(eq(samples.id, held.id));
    await t.db.insert(sampleStatusHistory).values({
      sampleId: held.id,
      status: 'completed',
      createdAt: new Date(Date.now() - 20 * 86_400_000),
    });
    const fresh = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${fresh.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake({ locationId: shelf.id })),
    });
    const away = await newSample();
    const inv = await callOk<Inventory>(t, 'GET', '/api/staff/inventory', { token: staff.token });
    expect(inv.flagHeldDaysAfterCompletion).toBe(14);
    const heldRow = inv.items.find((i) => i.id === held.id);
    expect(heldRow).toMatchObject({ status: 'completed', flagged: true, ownerName: 'Olivia Hartley' });
    expect(heldRow?.daysHere).toBeGreaterThanOrEqual(39);
    expect(heldRow?.custody.location?.name).toBe('Vault A');
    expect(inv.items.find((i) => i.id === fresh.id)).toMatchObject({
      flagged: false,
      daysHere: expect.any(Number),
    });
    expect(inv.items.some((i) => i.id === away.id)).toBe(false);
    // The lab's own number of days: at 30, twenty days after completion is not flagged.
    const form = new FormData();
    form.append('settings', JSON.stringify({ labName: 'Heritage Lab', flagHeldDaysAfterCompletion: 30 }));
    const saved = await callOk<{ flagHeldDaysAfterCompletion: number }>(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form,
    });
    expect(saved.flagHeldDaysAfterCompletion).toBe(30);
    const later = await callOk<Inventory>(t, 'GET', '/api/staff/inventory', { token: admin.token });
    expect(later.items.find((i) => i.id === held.id)?.flagged).toBe(false);
    const bad = new FormData();
    bad.append('settings', JSON.stringify({ labName: 'Heritage Lab', flagHeldDaysAfterCompletion: 0 }));
    expect((await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: bad })).status).toBe(400);
  });
});

const zbar = requirePrograms([PROGRAMS.pdftoppm, PROGRAMS.zbarimg], 'the item label decoding test');

describe.skipIf(!zbar)('label', () => {
  it('is a PDF whose QR code and Code 128 barcode both read as the VAL id', async () => {
    const s = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake()),
    });
    const res = await call(t, 'GET', `/api/staff/samples/${s.id}/label`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const displayId = `VAL-${String(s.id).padStart(4, '0')}`;
    expect(res.headers.get('content-disposition')).toContain(`Label-${displayId}.pdf`);
    const dir = mkdtempSync(join(tmpdir(), 'vl-label-'));
    try {
      writeFileSync(join(dir, 'label.pdf'), res.buffer ?? Buffer.alloc(0));
      execFileSync('pdftoppm', ['-r', '300', '-png', join(dir, 'label.pdf'), join(dir, 'label')]);
      const png = readdirSync(dir).find((f) => f.endsWith('.png'));
      expect(png).toBeDefined();
      const out = execFileSync('zbarimg', ['--raw', '-q', join(dir, png ?? '')], { encoding: 'utf8' });
      const codes = out.trim().split('\n').sort();
      expect(codes).toEqual([displayId, displayId]);
      const types = execFileSync('zbarimg', ['-q', join(dir, png ?? '')], { encoding: 'utf8' });
      expect(types).toContain(`CODE-128:${displayId}`);
      expect(types).toContain(`QR-Code:${displayId}`);
      const text = execFileSync('pdftotext', [join(dir, 'label.pdf'), '-'], { encoding: 'utf8' });
      expect(text).toContain('Georgian silver teapot');
      expect(text).toContain('Hartley');
      expect(text).toContain('March 3, 2026');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await call(t, 'GET', '/api/staff/samples/1999999/label', { token: staff.token })).status).toBe(
      404,
    );
  });
});

describe('audit trail', () => {
  const sampleEvents = (id: number) =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'sample'), eq(auditEvents.subjectId, String(id))))
      .orderBy(asc(auditEvents.id));

  it('every custody event writes its audit event with before and after, actor and network', async () => {
    const s = await newSample();
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/intake`, {
      token: staff.token,
      form: intakeForm(goodIntake(), [PHOTO_JPEG]),
    });
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
      token: staff.token,
      json: { event: 'to-expert', note: 'Hallmarks' },
    });
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
      token: staff.token,
      json: { event: 'to-storage', locationId: shelf.id },
    });
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/custody`, {
      token: admin.token,
      json: { event: 'moved', locationId: vault.id },
    });
    await callOk(t, 'POST', `/api/staff/samples/${s.id}/return`, {
      token: admin.token,
      json: { method: 'courier', carrier: 'DHL', trackingNumber: 'JD0001' },
    });
    const events = await sampleEvents(s.id);
    expect(events.map((e) => e.action)).toEqual([
      'custody.received',
      'custody.to_expert',
      'custody.to_storage',
      'custody.moved',
      'custody.returned',
    ]);
    const [received, expert, storage, moved, returned] = events;
    expect(received).toMatchObject({
      actorId: staff.id,
      actorLabel: staff.email,
      network: '127.0.0.0/24',
      before: { custodyState: 'awaiting-arrival', locationId: null, location: null },
      after: {
        custodyState: 'in-storage',
        locationId: vault.id,
        location: 'Vault A',
        receivedAt: '2026-03-03T10:15:00.000Z',
        itemCount: 1,
        packaging: 'Double box, bubble wrap',
        conditionOnArrival: 'In good order',
        arrivalPhotos: 1,
      },
    });
    expect(expert).toMatchObject({
      before: { custodyState: 'in-storage', location: 'Vault A' },
      after: { custodyState: 'with-expert', location: null, note: 'Hallmarks' },
    });
    expect(storage?.after).toMatchObject({ custodyState: 'in-storage', location: 'Shelf 3' });
    expect(moved).toMatchObject({ actorId: admin.id, after: { location: 'Vault A' } });
    expect(returned).toMatchObject({
      before: { custodyState: 'in-storage', location: 'Vault A' },
      after: { custodyState: 'returned', carrier: 'DHL', trackingNumber: 'JD0001' },
    });
  });

  it('a refused custody call leaves no audit event', async () => {
    const s = await newSample();
    expect((await intake(s.id, goodIntake({ itemCount: 0 }))).status).toBe(400);
    const ret = await call(t, 'POST', `/api/staff/samples/${s.id}/return`, {
      token: staff.token,
      json: { method: 'courier', carrier: 'DHL', trackingNumber: 'JD1' },
    });
    expect(ret.status).toBe(409);
    expect(await sampleEvents(s.id)).toEqual([]);
  });

  it('creating, renaming and retiring a location is recorded with what changed', async () => {
    const loc = await callOk<StorageLocation>(t, 'POST', '/api/admin/locations', {
      token: admin.token,
      json: { name: 'Safe 2' },
    });
    await callOk(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
      token: admin.token,
      json: { name: 'Safe B' },
    });
    await callOk(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
      token: admin.token,
      json: { retired: true },
    });
    // Nothing changed: nothing recorded.
    await callOk(t, 'PATCH', `/api/admin/locations/${loc.id}`, {
      token: admin.token,
      json: { retired: true },
    });
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectType, 'location'), eq(auditEvents.subjectId, String(loc.id))))
      .orderBy(asc(auditEvents.id));
    expect(events.map((e) => [e.action, e.before, e.after])).toEqual([
      ['location.created', null, { name: 'Safe 2', description: null }],
      ['location.updated', { name: 'Safe 2' }, { name: 'Safe B' }],
      ['location.updated', { retired: false }, { retired: true }],
    ]);
  });
});
