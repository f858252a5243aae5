import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ownSampleListItem } from '../../../common/contracts/samples';
import { sampleFiles, samples, users } from '../../db/schema';
import { insertSample } from '../../../tests/support/factories';
import {
  call,
  createUser,
  secondInstance,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../../../tests/support/test-app';

// The own list's answer is reused while the owner's samples stand (docs/decisions/0035-own-list-reuse.md):
// an unchanged list is answered without reading it again, and every kind of change, made by any code
// path and on any instance, shows in the very next answer.

let t: TestApp;
let staff: TestUser;
let listReads = 0;
beforeAll(async () => {
  t = await startTestApp({}, { runJobs: false });
  staff = await createUser(t, { role: 'staff' });
  // Counts the runs of the own list's statement (the app's database is this object).
  const read = t.database.queryTextRows.bind(t.database);
  t.database.queryTextRows = (name, text, values) => {
    if (name === 'samples_own_list') listReads++;
    return read(name, text, values);
  };
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const answerSchema = z.array(ownSampleListItem);
type Row = z.infer<typeof ownSampleListItem>;

async function list(user: TestUser): Promise<Row[]> {
  const res = await call(t, 'GET', '/api/samples', { token: user.token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return answerSchema.parse(res.body);
}

/** Lists twice: the second answer must be the first, without reading the list again. */
async function primed(user: TestUser): Promise<Row[]> {
  const first = await list(user);
  const reads = listReads;
  expect(await list(user)).toEqual(first);
  expect(listReads).toBe(reads);
  return first;
}

const versionOf = async (id: number) =>
  (await t.db.select({ v: users.samplesVersion }).from(users).where(eq(users.id, id)))[0]?.v;

describe('the own list, reused while it stands', () => {
  it('answers an unchanged list from memory, byte for byte the same, and reads it again after a change', async () => {
    const owner = await createUser(t);
    await insertSample(t.db, owner, { itemName: 'Pewter jug' });
    const first = await call(t, 'GET', '/api/samples', { token: owner.token });
    const reads = listReads;
    const second = await call(t, 'GET', '/api/samples', { token: owner.token });
    expect(second.text).toBe(first.text);
    expect(listReads).toBe(reads);
    expect(second.headers.get('cache-control')).toBe(first.headers.get('cache-control'));

    await insertSample(t.db, owner, { itemName: 'Brass candlestick' });
    const third = await list(owner);
    expect(listReads).toBe(reads + 1);
    expect(third.map((r) => r.itemName)).toEqual(['Brass candlestick', 'Pewter jug']);
  });

  it('shows each kind of change at once: a submission, a status change, a photo copy, a deletion', async () => {
    const owner = await createUser(t);
    const a = await insertSample(t.db, owner, { itemName: 'Oak chest', status: 'submitted' });
    await primed(owner);

    // Over HTTP: the staff's status change.
    await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, a.id));
    await primed(owner);
    const status = await call(t, 'POST', `/api/staff/samples/${a.id}/status`, {
      token: staff.token,
      json: { status: 'analysis' },
    });
    expect(status.status).toBe(200);
    expect((await primed(owner)).find((r) => r.id === a.id)?.status).toBe('analysis');

    // A file row of its own: the photo's copies, pending then made.
    const [photo] = await t.db
      .insert(sampleFiles)
      .values({
        sampleId: a.id,
        fileName: `own-list-${a.id}.jpg`,
        originalName: 'chest.jpg',
        fileType: 'image/jpeg',
        fileSize: 1000,
        fileCategory: 'photo',
        copiesState: 'pending',
      })
      .returning();
    let row = (await primed(owner)).find((r) => r.id === a.id);
    expect(row?.photoProcessing).toBe(true);
    expect(row?.thumbnailUrl).toBeNull();
    await t.db
      .update(sampleFiles)
      .set({ copiesState: 'ready' })
      .where(eq(sampleFiles.id, photo?.id ?? 0));
    row = (await primed(owner)).find((r) => r.id === a.id);
    expect(row?.photoProcessing).toBe(false);
    expect(row?.thumbnailUrl).toContain(String(photo?.id));
    await t.db.delete(sampleFiles).where(eq(sampleFiles.id, photo?.id ?? 0));
    expect((await primed(owner)).find((r) => r.id === a.id)?.thumbnailUrl).toBeNull();

    // A second sample, then the first one deleted.
    const b = await insertSample(t.db, owner, { itemName: 'Tin box' });
    expect((await primed(owner)).map((r) => r.id)).toEqual([b.id, a.id]);
    await t.db.delete(samples).where(eq(samples.id, a.id));
    expect((await primed(owner)).map((r) => r.id)).toEqual([b.id]);
  });

  it('a sample moved to another owner leaves one list and enters the other', async () => {
    const [one, two] = [await createUser(t), await createUser(t)];
    const s = await insertSample(t.db, one, { itemName: 'Moved clock' });
    expect((await primed(one)).map((r) => r.id)).toEqual([s.id]);
    expect(await primed(two)).toEqual([]);
    await t.db.update(samples).set({ userId: two.id }).where(eq(samples.id, s.id));
    expect(await primed(one)).toEqual([]);
    expect((await primed(two)).map((r) => r.id)).toEqual([s.id]);
  });

  it('one statement over several owners bumps each of them exactly once', async () => {
    const [one, two, three] = [await createUser(t), await createUser(t), await createUser(t)];
    const ids = [
      (await insertSample(t.db, one)).id,
      (await insertSample(t.db, one)).id,
      (await insertSample(t.db, two)).id,
    ];
    const before = [await versionOf(one.id), await versionOf(two.id), await versionOf(three.id)];
    await t.db.update(samples).set({ custodyLocationName: 'Shelf 9' }).where(inArray(samples.id, ids));
    const after = [await versionOf(one.id), await versionOf(two.id), await versionOf(three.id)];
    expect(after).toEqual([Number(before[0]) + 1, Number(before[1]) + 1, before[2]]);
    // A statement that changes no row changes no version.
    await t.db
      .update(samples)
      .set({ itemName: 'x' })
      .where(sql`false`);
    expect([await versionOf(one.id), await versionOf(two.id)]).toEqual(after.slice(0, 2));
  });

  it('a change made through another instance shows in this one at once', async () => {
    const owner = await createUser(t);
    const s = await insertSample(t.db, owner, { itemName: 'Twin vase', status: 'submitted' });
    const second = await secondInstance(t, {}, { runJobs: false });
    try {
      const listThere = async () => {
        const res = await second.inject({
          method: 'GET',
          url: '/api/samples',
          headers: { authorization: `Bearer ${owner.token}` },
        });
        expect(res.statusCode).toBe(200);
        return answerSchema.parse(res.json());
      };
      expect((await listThere())[0]?.status).toBe('submitted');
      expect((await listThere())[0]?.status).toBe('submitted');
      // This instance changes the sample; the other one answers the change in its very next answer.
      await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, s.id));
      const changed = await call(t, 'POST', `/api/staff/samples/${s.id}/status`, {
        token: staff.token,
        json: { status: 'in-progress' },
      });
      expect(changed.status).toBe(200);
      expect((await listThere())[0]?.status).toBe('in-progress');
    } finally {
      await second.close();
    }
  });

  it('a new UTC day is a new answer: a quote valid until today shows as expired tomorrow', async () => {
    const today = new Date();
    const day = today.toISOString().slice(0, 10);
    // Date alone is faked (timers and I/O run for real): one second before the day ends.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(`${day}T23:59:59.000Z`) });
    const owner = await createUser(t);
    await insertSample(t.db, owner, { itemName: 'Quoted jar', quoteStatus: 'sent', quoteValidUntil: day });
    expect((await primed(owner))[0]?.quoteStatus).toBe('sent');
    vi.setSystemTime(new Date(`${day}T23:59:59.000Z`).getTime() + 2_000);
    const reads = listReads;
    expect((await list(owner))[0]?.quoteStatus).toBe('expired');
    expect(listReads).toBe(reads + 1);
  });

  it('an API key reads its owner list afresh every time', async () => {
    const owner = await createUser(t);
    const created = await call(t, 'POST', '/api/api-keys', {
      token: owner.token,
      json: { name: 'Partner', scopes: ['samples:read'] },
    });
    expect(created.status).toBe(201);
    const key = (created.body as { key: string }).key;
    await insertSample(t.db, owner, { itemName: 'Keyed bowl' });
    const reads = listReads;
    for (let i = 0; i < 2; i++) {
      const res = await call(t, 'GET', '/api/samples', { token: key });
      expect(res.status).toBe(200);
      expect(answerSchema.parse(res.body).map((r) => r.itemName)).toEqual(['Keyed bowl']);
    }
    expect(listReads).toBe(reads + 2);
  });
});
