import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '../../../common/contracts/accounts';
import type { Role } from '../../../common/domain/roles';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { users } from '../../db/schema';

// The admin Staff tab pages and searches accounts on the server, so it stays quick with 10,000 users.

let t: TestApp;
let admin: TestUser;
const COUNT = 10_000;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin', firstName: 'Ada', lastName: 'Admin' });
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    email: `client${i}@bulk.example`,
    passwordHash: 'x',
    firstName: i === 4242 ? 'Zelda' : 'Client',
    lastName: i === 4242 ? 'Quartermain' : `Number ${i}`,
    role: (i % 500 === 0 ? 'staff' : 'user') as Role,
  }));
  for (let i = 0; i < rows.length; i += 1000) await t.db.insert(users).values(rows.slice(i, i + 1000));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const list = (query: string) => call(t, 'GET', `/api/admin/users?${query}`, { token: admin.token });

describe('GET /api/admin/users with ?page and ?search', () => {
  it('answers one page with the total in X-Total-Count, quickly', async () => {
    const started = Date.now();
    const res = await list('page=3&pageSize=20');
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    const rows = res.body as AdminUser[];
    expect(rows).toHaveLength(20);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(COUNT + 1);
    const ids = rows.map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const first = (await list('page=1&pageSize=20')).body as AdminUser[];
    expect(first.map((u) => u.id)).not.toContain(ids[0]);
    expect(elapsed).toBeLessThan(2000);
  });

  it('finds by part of the name, the full name or the e-mail, ignoring case', async () => {
    for (const search of ['zelda', 'QUARTER', 'Zelda Quartermain', 'client4242@bulk']) {
      const res = await list(`page=1&search=${encodeURIComponent(search)}`);
      expect(res.status).toBe(200);
      expect((res.body as AdminUser[]).map((u) => u.email)).toEqual(['client4242@bulk.example']);
      expect(res.headers.get('x-total-count')).toBe('1');
    }
  });

  it('combines search with a role, and treats % and _ as plain characters', async () => {
    const staff = await list('page=1&pageSize=100&role=staff&search=bulk.example');
    expect(staff.headers.get('x-total-count')).toBe(String(COUNT / 500));
    expect((staff.body as AdminUser[]).every((u) => u.role === 'staff')).toBe(true);
    const wild = await list('page=1&search=%25');
    expect(wild.status).toBe(200);
    expect(wild.headers.get('x-total-count')).toBe('0');
    const underscore = await list('page=1&search=_');
    expect(underscore.headers.get('x-total-count')).toBe('0');
  });

  it('refuses a bad page, page size or an over-long search with 400', async () => {
    for (const q of [
      'page=0',
      'page=abc',
      'page=1&pageSize=0',
      'page=1&pageSize=101',
      `page=1&search=${'a'.repeat(101)}`,
    ])
      expect((await list(q)).status).toBe(400);
  });

  it('is for admins only', async () => {
    const staff = await createUser(t, { role: 'staff' });
    expect((await call(t, 'GET', '/api/admin/users?page=1', { token: staff.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/users?page=1')).status).toBe(401);
  });
});
