import { eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactInquiry } from '../../../common/contracts/inquiries';
import { contactInquiries } from '../../db/schema';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;
let ids: number[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
  ]);
  const rows = await t.db
    .insert(contactInquiries)
    .values(
      Array.from({ length: 12 }, (_, i) => ({
        firstName: `Ada${i}`,
        lastName: 'Lovelace',
        email: `ada${i}@example.com`,
        subject: 'valuation-quote',
        message: `Message number ${i} `.repeat(10),
      })),
    )
    .returning({ id: contactInquiries.id });
  ids = rows.map((r) => r.id);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/contact-inquiries', () => {
  it('matrix: anonymous 401, customer and staff 403, admin 200', async () => {
    const path = '/api/admin/contact-inquiries?page=1&pageSize=10';
    expect((await call(t, 'GET', path)).status).toBe(401);
    expect((await call(t, 'GET', path, { token: customer.token })).status).toBe(403);
    expect((await call(t, 'GET', path, { token: staff.token })).status).toBe(403);
    expect((await call(t, 'GET', path, { token: admin.token })).status).toBe(200);
  });

  it('pages newest first with X-Total-Count and the documented fields', async () => {
    const p1 = await call(t, 'GET', '/api/admin/contact-inquiries?page=1&pageSize=10', {
      token: admin.token,
    });
    const p2 = await call(t, 'GET', '/api/admin/contact-inquiries?page=2&pageSize=10', {
      token: admin.token,
    });
    const p3 = await call(t, 'GET', '/api/admin/contact-inquiries?page=3&pageSize=10', {
      token: admin.token,
    });
    expect(p1.headers.get('x-total-count')).toBe('12');
    const first = p1.body as ContactInquiry[];
    expect(first).toHaveLength(10);
    expect([...first, ...(p2.body as ContactInquiry[])].map((i) => i.id)).toEqual([...ids].reverse());
    expect(p3.body).toEqual([]);
    expect(first[0]).toMatchObject({
      firstName: 'Ada11',
      lastName: 'Lovelace',
      email: 'ada11@example.com',
      subject: 'valuation-quote',
      status: 'new',
      createdAt: expect.any(String),
    });
    expect((await call(t, 'GET', '/api/admin/contact-inquiries?page=0', { token: admin.token })).status).toBe(
      400,
    );
  });
});

describe('POST /api/admin/contact-inquiries/{id}/status', () => {
  const path = (id: number) => `/api/admin/contact-inquiries/${id}/status`;

  it('matrix: anonymous 401, customer and staff 403, admin 200 with the updated inquiry', async () => {
    const id = ids[0] ?? 0;
    expect((await call(t, 'POST', path(id), { json: { status: 'responded' } })).status).toBe(401);
    for (const u of [customer, staff])
      expect(
        (await call(t, 'POST', path(id), { json: { status: 'responded' }, token: u.token })).status,
      ).toBe(403);
    const ok = await call(t, 'POST', path(id), { json: { status: 'responded' }, token: admin.token });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id, status: 'responded' });
    const back = await call(t, 'POST', path(id), { json: { status: 'pending' }, token: admin.token });
    expect(back.body).toMatchObject({ id, status: 'pending' });
    const [row] = await t.db.select().from(contactInquiries).where(eq(contactInquiries.id, id));
    expect(row?.status).toBe('pending');
  });

  it('refuses an invalid status (400) and an unknown inquiry (404)', async () => {
    const id = ids[1] ?? 0;
    for (const status of ['closed', '', 3])
      expect((await call(t, 'POST', path(id), { json: { status }, token: admin.token })).status).toBe(400);
    expect(
      (await call(t, 'POST', path(999_999), { json: { status: 'pending' }, token: admin.token })).status,
    ).toBe(404);
  });
});

describe('GET /api/admin/contact-inquiries.csv', () => {
  it('streams every inquiry newest first, quoting commas, quotes and new lines; status narrows it', async () => {
    const [tricky] = await t.db
      .insert(contactInquiries)
      .values({
        firstName: 'Zoë',
        lastName: 'Export, "Quoted"',
        email: 'zoe.export@example.com',
        subject: 'general',
        message: 'Line one,\nline "two"\r\nline three',
        status: 'pending',
      })
      .returning();
    const res = await call(t, 'GET', '/api/admin/contact-inquiries.csv', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    const [count] = await t.db.select({ n: sql<number>`count(*)::int` }).from(contactInquiries);
    expect(rows).toHaveLength(Number(count?.n));
    expect(rows.map((r) => Number(r.ID))).toEqual([...rows.map((r) => Number(r.ID))].sort((a, b) => b - a));
    expect(rows[0]).toMatchObject({
      ID: String(tricky?.id),
      'First name': 'Zoë',
      'Last name': 'Export, "Quoted"',
      Message: 'Line one,\nline "two"\r\nline three',
      Status: 'pending',
    });
    const pending = await call(t, 'GET', '/api/admin/contact-inquiries.csv?status=pending', {
      token: admin.token,
    });
    const pendingRows = parse(pending.text, { columns: true }) as Record<string, string>[];
    expect(pendingRows.length).toBeGreaterThan(0);
    expect(pendingRows.every((r) => r.Status === 'pending')).toBe(true);
    expect(
      (await call(t, 'GET', '/api/admin/contact-inquiries.csv?status=lost', { token: admin.token })).status,
    ).toBe(400);
    expect((await call(t, 'GET', '/api/admin/contact-inquiries.csv', { token: staff.token })).status).toBe(
      403,
    );
    expect((await call(t, 'GET', '/api/admin/contact-inquiries.csv')).status).toBe(401);
  });
});
