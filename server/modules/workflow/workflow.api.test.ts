import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleListItem } from '../../../common/contracts/samples';
import { type WorkListItem, WORK_LIST_PAGE_SIZE, workListItem } from '../../../common/contracts/workflow';
import { sampleIdBuckets, sampleStatusHistory, samples } from '../../db/schema';
import { insertSample } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let otherStaff: TestUser;
let customer: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, otherStaff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Sam', lastName: 'Staff' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user', firstName: 'Cora', lastName: 'Client' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/staff/samples', () => {
  it('lists only the caller’s assigned samples for staff, every sample for admins, with names', async () => {
    const mine = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const theirs = await insertSample(t.db, customer, { assignedStaffId: otherStaff.id });
    const res = await call(t, 'GET', '/api/staff/samples', { token: staff.token });
    expect(res.status).toBe(200);
    const list = res.body as WorkListItem[];
    expect(list.map((s) => s.id)).toContain(mine.id);
    expect(list.map((s) => s.id)).not.toContain(theirs.id);
    const row = list.find((s) => s.id === mine.id);
    expect(row?.user).toEqual({ firstName: 'Cora', lastName: 'Client' });
    expect(row?.assignedStaff).toEqual({ firstName: 'Sam', lastName: 'Staff' });
    // The work list's shape: exactly the contract's fields, no long texts or contact details.
    expect(workListItem.strict().safeParse(row).success).toBe(true);
    expect(Object.keys(row ?? {}).sort()).toEqual(Object.keys(workListItem.shape).sort());
    expect(row).toMatchObject({
      id: mine.id,
      userId: customer.id,
      itemName: mine.itemName,
      status: mine.status,
      assignedStaffId: staff.id,
      submissionDate: mine.submissionDate.toISOString(),
    });
    expect(row).not.toHaveProperty('description');
    expect(row).not.toHaveProperty('submitterEmail');
    const all = await call(t, 'GET', '/api/staff/samples', { token: admin.token });
    expect(all.status).toBe(200);
    const ids = (all.body as WorkListItem[]).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('answers one bounded page, newest first, with the total; a page size over the bound is 400', async () => {
    for (let i = 0; i < 3; i++) await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const first = await call(t, 'GET', '/api/staff/samples?pageSize=2', { token: staff.token });
    expect(first.status).toBe(200);
    const total = Number(first.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    const firstIds = (first.body as WorkListItem[]).map((s) => s.id);
    expect(firstIds).toHaveLength(2);
    const second = await call(t, 'GET', '/api/staff/samples?pageSize=2&page=2', { token: staff.token });
    const secondIds = (second.body as WorkListItem[]).map((s) => s.id);
    expect(Math.max(...secondIds)).toBeLessThan(Math.min(...firstIds));
    const everything = await call(t, 'GET', '/api/staff/samples', { token: admin.token });
    expect((everything.body as WorkListItem[]).length).toBe(Number(everything.headers.get('x-total-count')));
    const tooMany = await call(t, 'GET', `/api/staff/samples?pageSize=${WORK_LIST_PAGE_SIZE + 1}`, {
      token: admin.token,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain(`pageSize must be at most ${WORK_LIST_PAGE_SIZE}`);
  });

  it('refuses anonymous (401) and customers (403)', async () => {
    expect((await call(t, 'GET', '/api/staff/samples')).status).toBe(401);
    expect((await call(t, 'GET', '/api/staff/samples', { token: customer.token })).status).toBe(403);
  });
});

describe('POST /api/staff/samples/{id}/status', () => {
  const path = (id: number) => `/api/staff/samples/${id}/status`;

  it('matrix: anonymous 401, customer 403, unassigned staff 403, assigned staff 200, admin 200', async () => {
    const s = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const body = { status: 'analysis', comment: '' };
    expect((await call(t, 'POST', path(s.id), { json: body })).status).toBe(401);
    expect((await call(t, 'POST', path(s.id), { json: body, token: customer.token })).status).toBe(403);
    expect((await call(t, 'POST', path(s.id), { json: body, token: otherStaff.token })).status).toBe(403);
    const ok = await call(t, 'POST', path(s.id), { json: body, token: staff.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: s.id, status: 'analysis' });
    const byAdmin = await call(t, 'POST', path(s.id), { json: { status: 'review' }, token: admin.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ status: 'review' });
  });

  it('writes a status-history row (status, comment, who, when) on every change', async () => {
    const s = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const before = Date.now() - 5_000;
    await call(t, 'POST', path(s.id), {
      json: { status: 'in-progress', comment: 'Started by staff' },
      token: staff.token,
    });
    await call(t, 'POST', path(s.id), { json: { status: 'completed', comment: '' }, token: admin.token });
    await call(t, 'POST', path(s.id), { json: { status: 'on-hold' }, token: staff.token });
    const history = await t.db
      .select()
      .from(sampleStatusHistory)
      .where(eq(sampleStatusHistory.sampleId, s.id))
      .orderBy(asc(sampleStatusHistory.id));
    expect(history.map((h) => [h.status, h.comment, h.updatedBy])).toEqual([
      ['in-progress', 'Started by staff', staff.id],
      ['completed', null, admin.id],
      ['on-hold', null, staff.id],
    ]);
    for (const h of history) expect(new Date(h.createdAt).getTime()).toBeGreaterThan(before);
    const [row] = await t.db.select().from(samples).where(eq(samples.id, s.id));
    expect(row?.status).toBe('on-hold');
  });

  it('refuses an invalid status with 400 and writes nothing; unknown sample 404', async () => {
    const s = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    for (const status of ['finished', '', 42, null]) {
      const res = await call(t, 'POST', path(s.id), { json: { status }, token: staff.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String) });
    }
    const history = await t.db
      .select()
      .from(sampleStatusHistory)
      .where(eq(sampleStatusHistory.sampleId, s.id));
    expect(history).toHaveLength(0);
    const missing = await call(t, 'POST', path(999_999), { json: { status: 'review' }, token: admin.token });
    expect(missing.status).toBe(404);
    const missingForStaff = await call(t, 'POST', path(999_999), {
      json: { status: 'review' },
      token: staff.token,
    });
    expect(missingForStaff.status).toBe(404);
    expect(
      (
        await call(t, 'POST', '/api/staff/samples/abc/status', {
          json: { status: 'review' },
          token: admin.token,
        })
      ).status,
    ).toBe(400);
  });
});

describe('GET /api/admin/samples', () => {
  it('matrix: anonymous 401, customer 403, staff 200, admin 200', async () => {
    expect((await call(t, 'GET', '/api/admin/samples?page=1&pageSize=10')).status).toBe(401);
    expect(
      (await call(t, 'GET', '/api/admin/samples?page=1&pageSize=10', { token: customer.token })).status,
    ).toBe(403);
    expect(
      (await call(t, 'GET', '/api/admin/samples?page=1&pageSize=10', { token: staff.token })).status,
    ).toBe(200);
    expect(
      (await call(t, 'GET', '/api/admin/samples?page=1&pageSize=10', { token: admin.token })).status,
    ).toBe(200);
  });

  it('pages newest first with X-Total-Count, names, and exact pages across id gaps', async () => {
    for (let i = 0; i < 23; i++) await insertSample(t.db, customer, { itemName: `Item ${i}` });
    // Gaps in the id sequence (refused submissions, deletions) must not shift pages.
    await t.db.execute(sql`select setval('samples_id_seq', (select max(id) from samples) + 1500)`);
    for (let i = 0; i < 4; i++)
      await insertSample(t.db, customer, { itemName: `Late ${i}`, assignedStaffId: staff.id });
    const victim = await insertSample(t.db, customer, { itemName: 'Deleted' });
    await t.db.delete(samples).where(eq(samples.id, victim.id));

    const all = await t.db
      .select({ id: samples.id })
      .from(samples)
      .orderBy(sql`${samples.id} desc`);
    const total = all.length;
    const pages: number[][] = [];
    for (let page = 1; page <= Math.ceil(total / 10) + 1; page++) {
      const res = await call(t, 'GET', `/api/admin/samples?page=${page}&pageSize=10`, { token: admin.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe(String(total));
      pages.push((res.body as SampleListItem[]).map((s) => s.id));
    }
    expect(pages.flat()).toEqual(all.map((r) => r.id));
    expect(pages.at(-1)).toEqual([]);
    expect(pages[0]).toHaveLength(10);

    const first = await call(t, 'GET', '/api/admin/samples?page=1&pageSize=10', { token: admin.token });
    const late = (first.body as SampleListItem[]).find((s) => s.itemName === 'Late 3');
    expect(late?.user).toEqual({ firstName: 'Cora', lastName: 'Client' });
    expect(late?.assignedStaff).toEqual({ firstName: 'Sam', lastName: 'Staff' });
    const unassigned = (first.body as SampleListItem[]).find((s) => s.assignedStaffId === null);
    if (unassigned) expect(unassigned.assignedStaff).toBeNull();

    const three = await call(t, 'GET', '/api/admin/samples?page=2&pageSize=3', { token: admin.token });
    expect((three.body as SampleListItem[]).map((s) => s.id)).toEqual(all.slice(3, 6).map((r) => r.id));
  });

  it('keeps the bucket counts equal to the table after inserts, deletes and truncation-free bulk writes', async () => {
    const [{ n } = { n: 0 }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(samples);
    const [{ sum } = { sum: 0 }] = await t.db
      .select({ sum: sql<number>`coalesce(sum(${sampleIdBuckets.rows}), 0)::int` })
      .from(sampleIdBuckets);
    expect(sum).toBe(n);
  });

  it('refuses bad paging with 400, never 500', async () => {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'pageSize=0', 'pageSize=1000', 'page=1.5']) {
      const res = await call(t, 'GET', `/api/admin/samples?${q}`, { token: admin.token });
      expect(res.status, q).toBe(400);
    }
  });
});

describe('POST /api/admin/samples/{id}/assign', () => {
  const path = (id: number) => `/api/admin/samples/${id}/assign`;

  it('matrix: anonymous 401, customer 403, staff 403 (assigned or not), admin 200', async () => {
    const s = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const body = { staffId: otherStaff.id };
    expect((await call(t, 'POST', path(s.id), { json: body })).status).toBe(401);
    expect((await call(t, 'POST', path(s.id), { json: body, token: customer.token })).status).toBe(403);
    expect((await call(t, 'POST', path(s.id), { json: body, token: staff.token })).status).toBe(403);
    expect((await call(t, 'POST', path(s.id), { json: body, token: otherStaff.token })).status).toBe(403);
    const ok = await call(t, 'POST', path(s.id), { json: body, token: admin.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: s.id, assignedStaffId: otherStaff.id });
    const toAdmin = await call(t, 'POST', path(s.id), { json: { staffId: admin.id }, token: admin.token });
    expect(toAdmin.status).toBe(200);
  });

  it('refuses a customer, an unknown user or no staff member with 400; unknown sample 404', async () => {
    const s = await insertSample(t.db, customer);
    const toCustomer = await call(t, 'POST', path(s.id), {
      json: { staffId: customer.id },
      token: admin.token,
    });
    expect(toCustomer.status).toBe(400);
    expect(toCustomer.body).toMatchObject({
      message: 'Samples can only be assigned to staff or admin users',
    });
    expect(
      (await call(t, 'POST', path(s.id), { json: { staffId: 987_654 }, token: admin.token })).status,
    ).toBe(400);
    const none = await call(t, 'POST', path(s.id), { json: {}, token: admin.token });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ message: 'Please select a staff member' });
    const [row] = await t.db.select().from(samples).where(eq(samples.id, s.id));
    expect(row?.assignedStaffId).toBeNull();
    expect(
      (await call(t, 'POST', path(999_999), { json: { staffId: staff.id }, token: admin.token })).status,
    ).toBe(404);
  });

  it('lets the newly assigned staff member change the status, and no longer the previous one', async () => {
    const s = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    await call(t, 'POST', path(s.id), { json: { staffId: otherStaff.id }, token: admin.token });
    const status = (u: TestUser) =>
      call(t, 'POST', `/api/staff/samples/${s.id}/status`, {
        json: { status: 'in-progress' },
        token: u.token,
      });
    expect((await status(staff)).status).toBe(403);
    expect((await status(otherStaff)).status).toBe(200);
  });
});

describe('GET /api/admin/analytics', () => {
  it('counts by status and per week for the last 12 weeks; staff and admin only', async () => {
    expect((await call(t, 'GET', '/api/admin/analytics')).status).toBe(401);
    expect((await call(t, 'GET', '/api/admin/analytics', { token: customer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/analytics', { token: staff.token })).status).toBe(200);
    await insertSample(t.db, customer, { submissionDate: new Date(Date.now() - 400 * 86_400_000) });
    const res = await call(t, 'GET', '/api/admin/analytics', { token: admin.token });
    expect(res.status).toBe(200);
    const body = res.body as {
      totalSamples: number;
      activeSamples: number;
      completedSamples: number;
      byStatus: { status: string; count: number }[];
      weekly: { weekStart: string; count: number }[];
    };
    const rows = await t.db
      .select({ status: samples.status, submissionDate: samples.submissionDate })
      .from(samples);
    expect(body.totalSamples).toBe(rows.length);
    expect(body.completedSamples).toBe(rows.filter((r) => r.status === 'completed').length);
    expect(body.activeSamples).toBe(rows.filter((r) => !['completed', 'on-hold'].includes(r.status)).length);
    expect(body.byStatus.map((b) => b.status)).toEqual([
      'submitted',
      'in-progress',
      'analysis',
      'review',
      'completed',
      'on-hold',
    ]);
    expect(body.byStatus.reduce((a, b) => a + b.count, 0)).toBe(rows.length);
    expect(body.weekly).toHaveLength(12);
    // Everything but the 400-day-old sample was submitted this week.
    expect(body.weekly.at(-1)?.count).toBe(rows.length - 1);
    expect(body.weekly.reduce((a, w) => a + w.count, 0)).toBe(rows.length - 1);
    const monday = new Date(`${body.weekly.at(-1)?.weekStart}T00:00:00Z`);
    expect(monday.getUTCDay()).toBe(1);
  });
});

describe('roles behind the Staff tab', () => {
  it('keeps the last admin (409) and lets a promoted user be assigned a sample', async () => {
    const demote = await call(t, 'POST', `/api/admin/users/${admin.id}/role`, {
      json: { role: 'user' },
      token: admin.token,
    });
    expect(demote.status).toBe(409);
    const promoted = await createUser(t, { role: 'user' });
    const s = await insertSample(t.db, customer);
    const refused = await call(t, 'POST', `/api/admin/samples/${s.id}/assign`, {
      json: { staffId: promoted.id },
      token: admin.token,
    });
    expect(refused.status).toBe(400);
    const promote = await call(t, 'POST', `/api/admin/users/${promoted.id}/role`, {
      json: { role: 'staff' },
      token: admin.token,
    });
    expect(promote.status).toBe(200);
    const assigned = await call(t, 'POST', `/api/admin/samples/${s.id}/assign`, {
      json: { staffId: promoted.id },
      token: admin.token,
    });
    expect(assigned.status).toBe(200);
  });
});
