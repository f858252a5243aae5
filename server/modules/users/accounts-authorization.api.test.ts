import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUserResponse } from '../../../common/contracts/accounts';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Every accounts call × {anonymous, customer, staff, admin}: the status each one gets.

type Caller = 'anonymous' | 'customer' | 'staff' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'customer', 'staff', 'admin'];

const PNG = readFileSync(new URL('../../../tests/fixtures/photo.png', import.meta.url));

let t: TestApp;
const who: Partial<Record<Caller, TestUser>> = {};
/** A customer whose account the role-change row targets, and whose picture the /Uploads rows fetch. */
let target: TestUser;
let targetPicture: string;
let targetSignatureOwner: TestUser;
let targetSignature: string;

const profileForm = (email: string, files: { signature?: boolean } = {}) => {
  const form = new FormData();
  form.append('profile', JSON.stringify({ email, firstName: 'Matrix' }));
  if (files.signature)
    form.append('signature', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 's.png');
  return form;
};

type Row = {
  call: string;
  expected: Record<Caller, number>;
  run(token: string | undefined, caller: Caller): Promise<{ status: number }>;
};

let registerCount = 0;
const ROWS: Row[] = [
  {
    call: 'POST /login',
    expected: { anonymous: 200, customer: 200, staff: 200, admin: 200 },
    run: (token, caller) => {
      const u = caller === 'anonymous' ? target : who[caller];
      return call(t, 'POST', '/login', { token, json: { email: u?.email, password: u?.password } });
    },
  },
  {
    call: 'POST /api/register',
    expected: { anonymous: 201, customer: 201, staff: 201, admin: 201 },
    run: (token) =>
      call(t, 'POST', '/api/register', {
        token,
        json: {
          email: `matrix-${++registerCount}@example.com`,
          password: 'a-good-password',
          firstName: 'M',
          lastName: 'X',
        },
      }),
  },
  {
    call: 'GET /api/auth/user',
    expected: { anonymous: 401, customer: 200, staff: 200, admin: 200 },
    run: (token) => call(t, 'GET', '/api/auth/user', { token }),
  },
  {
    call: 'PUT /api/users/profile',
    expected: { anonymous: 401, customer: 200, staff: 200, admin: 200 },
    run: (token, caller) =>
      call(t, 'PUT', '/api/users/profile', {
        token,
        form: profileForm(who[caller]?.email ?? 'anon@example.com'),
      }),
  },
  {
    call: 'PUT /api/users/profile with a signature',
    expected: { anonymous: 401, customer: 403, staff: 200, admin: 200 },
    run: (token, caller) =>
      call(t, 'PUT', '/api/users/profile', {
        token,
        form: profileForm(who[caller]?.email ?? 'anon@example.com', { signature: true }),
      }),
  },
  {
    call: 'GET /api/admin/users',
    expected: { anonymous: 401, customer: 403, staff: 403, admin: 200 },
    run: (token) => call(t, 'GET', '/api/admin/users', { token }),
  },
  {
    call: 'GET /api/admin/users?role=staff',
    expected: { anonymous: 401, customer: 403, staff: 403, admin: 200 },
    run: (token) => call(t, 'GET', '/api/admin/users?role=staff', { token }),
  },
  {
    call: 'POST /api/admin/users/{id}/role',
    expected: { anonymous: 401, customer: 403, staff: 403, admin: 200 },
    run: (token) => call(t, 'POST', `/api/admin/users/${target.id}/role`, { token, json: { role: 'user' } }),
  },
  {
    call: "GET someone else's /Uploads/profile/…",
    expected: { anonymous: 401, customer: 404, staff: 404, admin: 200 },
    run: (token) => call(t, 'GET', targetPicture, { token }),
  },
  {
    call: "GET someone else's /Uploads/signature/…",
    expected: { anonymous: 401, customer: 404, staff: 404, admin: 200 },
    run: (token) => call(t, 'GET', targetSignature, { token }),
  },
];

beforeAll(async () => {
  t = await startTestApp();
  who.customer = await createUser(t, { role: 'user' });
  who.staff = await createUser(t, { role: 'staff' });
  who.admin = await createUser(t, { role: 'admin' });
  target = await createUser(t, { role: 'user' });
  const form = new FormData();
  form.append('profile', JSON.stringify({ email: target.email }));
  form.append('profileImage', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
  const res = await call(t, 'PUT', '/api/users/profile', { token: target.token, form });
  targetPicture = (res.body as AuthUserResponse).profileImageUrl ?? '';
  targetSignatureOwner = await createUser(t, { role: 'staff' });
  const sig = await call(t, 'PUT', '/api/users/profile', {
    token: targetSignatureOwner.token,
    form: profileForm(targetSignatureOwner.email, { signature: true }),
  });
  targetSignature = (sig.body as AuthUserResponse).signature ?? '';
});
afterAll(async () => {
  await t?.close();
});

describe('accounts authorization matrix', () => {
  it('has its fixtures', () => {
    expect(targetPicture).toMatch(/^\/Uploads\/profile\//);
    expect(targetSignature).toMatch(/^\/Uploads\/signature\//);
  });

  const cases = ROWS.flatMap((row) => CALLERS.map((caller) => ({ row, caller })));
  it.each(cases.map(({ row, caller }) => [row.call, caller, row.expected[caller], row] as const))(
    '%s as %s → %i',
    async (_call, caller, expected, row) => {
      const token = caller === 'anonymous' ? undefined : who[caller]?.token;
      const res = await row.run(token, caller);
      expect(res.status).toBe(expected);
    },
  );

  it('answers 401 to every guarded call with an expired token or a deactivated account', async () => {
    const u = await createUser(t, { role: 'admin' });
    const expired = await t.app.deps.tokens.sign({ id: u.id, role: 'admin' }, -1);
    const deactivated = await createUser(t, { role: 'admin', isActive: false });
    for (const row of ROWS.filter((r) => r.expected.anonymous === 401)) {
      expect((await row.run(expired, 'admin')).status, `${row.call} with an expired token`).toBe(401);
      expect((await row.run(deactivated.token, 'admin')).status, `${row.call} deactivated`).toBe(401);
    }
  });
});
