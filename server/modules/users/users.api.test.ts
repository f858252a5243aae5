import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UNPAGED_USERS_LIMIT,
  type AdminUser,
  type AuthUserResponse,
  LAST_ADMIN_MESSAGE,
  SIGNATURE_RESTRICTED_MESSAGE,
} from '../../../common/contracts/accounts';
import { MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { users } from '../../db/schema';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url));
const PNG = fixture('photo.png');
const JPG = fixture('photo.jpg');
const NOT_IMAGE = fixture('not-an-image.png');
/** A real PNG header padded to `size` bytes: detected as PNG by content. */
const pngOfSize = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

type Profile = {
  email: string;
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  currentPassword?: string;
};

function profileForm(
  profile: Profile | string | undefined,
  files: {
    profileImage?: [Buffer, string];
    signature?: [Buffer, string];
    extra?: [string, Buffer, string][];
  } = {},
): FormData {
  const form = new FormData();
  if (profile !== undefined)
    form.append('profile', typeof profile === 'string' ? profile : JSON.stringify(profile));
  const blob = ([buf, name]: [Buffer, string]) =>
    new Blob([new Uint8Array(buf)], { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg' });
  if (files.profileImage) form.append('profileImage', blob(files.profileImage), files.profileImage[1]);
  if (files.signature) form.append('signature', blob(files.signature), files.signature[1]);
  for (const [field, buf, name] of files.extra ?? []) form.append(field, blob([buf, name]), name);
  return form;
}

const putProfile = (u: { token: string }, form: FormData) =>
  call(t, 'PUT', '/api/users/profile', { token: u.token, form });

async function rowOf(id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('no row');
  return row;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('PUT /api/users/profile', () => {
  it('updates e-mail, phone and names: trimmed, empty → null, 200 with the auth user shape', async () => {
    const u = await createUser(t);
    const res = await putProfile(
      u,
      profileForm({
        email: `  Changed-${u.id}@Example.com `,
        phone: ' +1 555 0100 ',
        firstName: ' Grace ',
        lastName: '',
        // A new e-mail address needs the current password (docs/product/accounts-and-sessions.md).
        currentPassword: u.password,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: u.id,
      email: `changed-${u.id}@example.com`,
      phone: '+1 555 0100',
      firstName: 'Grace',
      lastName: null,
      profileImageUrl: null,
      signature: null,
      qualifications: null,
      role: 'user',
      emailVerified: false,
      notifyStatusChanges: true,
      twoFactorEnabled: false,
      twoFactorSetupRequired: false,
    });
    const me = await call(t, 'GET', '/api/auth/user', { token: u.token });
    expect(me.body).toEqual(res.body);
    // The new e-mail is the login from now on.
    const login = await call(t, 'POST', '/login', {
      json: { email: `changed-${u.id}@example.com`, password: u.password },
    });
    expect(login.status).toBe(200);
  });

  it('keeps the own e-mail without a conflict, and ignores unknown fields', async () => {
    const u = await createUser(t);
    const res = await putProfile(u, profileForm({ email: u.email, role: 'admin' } as Profile));
    expect(res.status).toBe(200);
    expect((res.body as AuthUserResponse).role).toBe('user');
  });

  it('refuses an e-mail that belongs to another account with 409, changing nothing', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const res = await putProfile(u, profileForm({ email: other.email.toUpperCase(), firstName: 'Changed' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'An account with this email already exists' });
    expect((await rowOf(u.id)).firstName).toBe(u.firstName);
  });

  it.each([
    ['a missing profile part', undefined, 'profile'],
    ['profile JSON that does not parse', '{not json', 'profile'],
    ['an empty e-mail', { email: '' }, 'email'],
    ['an e-mail without the simple pattern', { email: 'no-at-sign' }, 'email'],
    ['a wrong type', { email: 'ok@example.com', phone: 42 }, 'phone'],
  ])('refuses %s with 400 "Invalid profile data" and the field', async (_name, profile, path) => {
    const u = await createUser(t);
    const res = await putProfile(
      u,
      profileForm(profile as Profile | string | undefined, { profileImage: [PNG, 'p.png'] }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: 'Invalid profile data',
      errors: expect.arrayContaining([expect.objectContaining({ path })]),
    });
    expect((await rowOf(u.id)).profileImageUrl).toBeNull();
    expect(await t.storage.list('profile')).not.toContainEqual(expect.stringContaining('.tmp-'));
  });

  it('gives the documented messages for the e-mail: "Email is required", "Invalid email format"', async () => {
    const u = await createUser(t);
    const empty = await putProfile(u, profileForm({ email: '  ' }));
    expect((empty.body as { errors: unknown[] }).errors).toContainEqual({
      path: 'email',
      message: 'Email is required',
    });
    const bad = await putProfile(u, profileForm({ email: 'a@b' }));
    expect((bad.body as { errors: unknown[] }).errors).toContainEqual({
      path: 'email',
      message: 'Invalid email format',
    });
  });

  it('accepts the profile JSON sent as a file part (a Blob of application/json)', async () => {
    const u = await createUser(t);
    const form = new FormData();
    form.append(
      'profile',
      new Blob([JSON.stringify({ email: u.email, firstName: 'Blobby' })], { type: 'application/json' }),
      'profile.json',
    );
    const res = await putProfile(u, form);
    expect(res.status).toBe(200);
    expect((res.body as AuthUserResponse).firstName).toBe('Blobby');
  });

  it('answers a broken multipart body with 400 and a flood of parts with 413, never 500', async () => {
    const u = await createUser(t);
    const broken = await call(t, 'PUT', '/api/users/profile', {
      token: u.token,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      rawBody: '--xyz\r\nContent-Disposition: form-data; name="profile"\r\n\r\n{"email":"a@b.co"}\r\n--xy',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: 'Malformed multipart body' });
    const flood = profileForm({ email: u.email });
    for (let i = 0; i < 20; i++) flood.append(`extra${i}`, 'x');
    const res = await putProfile(u, flood);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Too many files uploaded' });
  });

  it('refuses a JSON body with 415: the call is multipart', async () => {
    const u = await createUser(t);
    const res = await call(t, 'PUT', '/api/users/profile', { token: u.token, json: { email: u.email } });
    expect(res.status).toBe(415);
  });

  it('stores a profile picture under profile/<random>.png, serves it to its owner, and removes the old one when replaced', async () => {
    const u = await createUser(t);
    const first = await putProfile(u, profileForm({ email: u.email }, { profileImage: [PNG, 'me.png'] }));
    expect(first.status).toBe(200);
    const firstUrl = (first.body as AuthUserResponse).profileImageUrl ?? '';
    expect(firstUrl).toMatch(/^\/Uploads\/profile\/[0-9a-f]{32}\.png$/);
    const firstKey = firstUrl.replace('/Uploads/', '');
    expect((await rowOf(u.id)).profileImageUrl).toBe(firstKey);
    expect(await t.storage.read(firstKey)).toEqual(PNG);

    const served = await fetch(`${t.url}${firstUrl}`, { headers: { authorization: `Bearer ${u.token}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    // The client's file name and declared type do not matter: the content decides (a JPEG named .png).
    const second = await putProfile(
      u,
      profileForm({ email: u.email }, { profileImage: [JPG, 'looks-like.png'] }),
    );
    expect(second.status).toBe(200);
    const secondUrl = (second.body as AuthUserResponse).profileImageUrl ?? '';
    expect(secondUrl).toMatch(/^\/Uploads\/profile\/[0-9a-f]{32}\.jpg$/);
    expect(await t.storage.exists(firstKey)).toBe(false);
    expect(await t.storage.exists(secondUrl.replace('/Uploads/', ''))).toBe(true);
    const old = await call(t, 'GET', firstUrl, { token: u.token });
    expect(old.status).toBe(404);

    // Saving without a new picture keeps the current one.
    const third = await putProfile(u, profileForm({ email: u.email, firstName: 'Still' }));
    expect((third.body as AuthUserResponse).profileImageUrl).toBe(secondUrl);
  });

  it('refuses a file that is not JPEG or PNG by content with 415, storing nothing', async () => {
    const u = await createUser(t);
    const before = await t.storage.list('profile');
    const res = await putProfile(
      u,
      profileForm({ email: u.email, firstName: 'Nope' }, { profileImage: [NOT_IMAGE, 'x.png'] }),
    );
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Only JPEG or PNG files are allowed' });
    expect(await t.storage.list('profile')).toEqual(before);
    expect((await rowOf(u.id)).firstName).toBe(u.firstName);
  });

  it('refuses an image of 2 MB or more with 413, storing nothing; just under 2 MB is accepted', async () => {
    const u = await createUser(t);
    const before = await t.storage.list('profile');
    const big = await putProfile(
      u,
      profileForm(
        { email: u.email, firstName: 'Big' },
        { profileImage: [pngOfSize(MAX_IMAGE_BYTES), 'big.png'] },
      ),
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: 'File size must be less than 2MB' });
    expect(await t.storage.list('profile')).toEqual(before);
    expect((await rowOf(u.id)).firstName).toBe(u.firstName);

    const huge = await putProfile(
      u,
      profileForm({ email: u.email }, { profileImage: [pngOfSize(8 * 1024 * 1024), 'huge.png'] }),
    );
    expect(huge.status).toBe(413);

    const fits = await putProfile(
      u,
      profileForm({ email: u.email }, { profileImage: [pngOfSize(MAX_IMAGE_BYTES - 1), 'fits.png'] }),
    );
    expect(fits.status).toBe(200);
  });

  it('refuses two profile pictures in one request with 413', async () => {
    const u = await createUser(t);
    const res = await putProfile(
      u,
      profileForm(
        { email: u.email },
        { profileImage: [PNG, 'a.png'], extra: [['profileImage', JPG, 'b.jpg']] },
      ),
    );
    expect(res.status).toBe(413);
    expect((await rowOf(u.id)).profileImageUrl).toBeNull();
  });

  it('refuses a signature from a customer with 403 and the documented message, changing nothing', async () => {
    const u = await createUser(t);
    const res = await putProfile(
      u,
      profileForm(
        { email: u.email, firstName: 'Changed' },
        { profileImage: [PNG, 'p.png'], signature: [PNG, 's.png'] },
      ),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: SIGNATURE_RESTRICTED_MESSAGE });
    expect(SIGNATURE_RESTRICTED_MESSAGE).toBe('Signature uploads are restricted to admin or staff roles');
    const row = await rowOf(u.id);
    expect(row.firstName).toBe(u.firstName);
    expect(row.profileImageUrl).toBeNull();
    expect(row.signature).toBeNull();
  });

  it.each(['staff', 'admin'] as const)(
    'stores a signature for %s under signature/<random>, replacing the old one',
    async (role) => {
      const u = await createUser(t, { role });
      const first = await putProfile(u, profileForm({ email: u.email }, { signature: [PNG, 'sig.png'] }));
      expect(first.status).toBe(200);
      const firstUrl = (first.body as AuthUserResponse).signature ?? '';
      expect(firstUrl).toMatch(/^\/Uploads\/signature\/[0-9a-f]{32}\.png$/);
      expect((await call(t, 'GET', firstUrl, { token: u.token })).status).toBe(200);
      const second = await putProfile(
        u,
        profileForm({ email: u.email }, { signature: [JPG, 'sig.jpg'], profileImage: [PNG, 'p.png'] }),
      );
      expect(second.status).toBe(200);
      const body = second.body as AuthUserResponse;
      expect(body.signature).toMatch(/^\/Uploads\/signature\/[0-9a-f]{32}\.jpg$/);
      expect(body.profileImageUrl).toMatch(/^\/Uploads\/profile\/[0-9a-f]{32}\.png$/);
      expect(await t.storage.exists(firstUrl.replace('/Uploads/', ''))).toBe(false);
    },
  );

  it('serves profile pictures only to their owner and admins', async () => {
    const owner = await createUser(t);
    const res = await putProfile(
      owner,
      profileForm({ email: owner.email }, { profileImage: [PNG, 'p.png'] }),
    );
    const url = (res.body as AuthUserResponse).profileImageUrl ?? '';
    const other = await createUser(t);
    const staff = await createUser(t, { role: 'staff' });
    const admin = await createUser(t, { role: 'admin' });
    expect((await call(t, 'GET', url)).status).toBe(401);
    expect((await call(t, 'GET', url, { token: other.token })).status).toBe(404);
    expect((await call(t, 'GET', url, { token: staff.token })).status).toBe(404);
    expect((await call(t, 'GET', url, { token: admin.token })).status).toBe(200);
  });
});

describe('GET /api/admin/users', () => {
  it('lists every account as {id, firstName, lastName, email, role, isActive, twoFactorEnabled}, ordered by id', async () => {
    const admin = await createUser(t, { role: 'admin' });
    await createUser(t, { role: 'staff' });
    const res = await call(t, 'GET', '/api/admin/users', { token: admin.token });
    expect(res.status).toBe(200);
    const list = res.body as AdminUser[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    for (const entry of list)
      expect(Object.keys(entry).sort()).toEqual([
        'email',
        'firstName',
        'id',
        'isActive',
        'lastName',
        'role',
        'twoFactorEnabled',
      ]);
    const ids = list.map((u) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(list).toContainEqual({
      id: admin.id,
      firstName: admin.firstName,
      lastName: admin.lastName,
      email: admin.email,
      role: 'admin',
      isActive: true,
      twoFactorEnabled: false,
    });
    expect(res.text).not.toMatch(/argon2|password|totp/i);
  });

  it(`without ?page= answers at most ${UNPAGED_USERS_LIMIT} accounts, the total in X-Total-Count`, async () => {
    const admin = await createUser(t, { role: 'admin' });
    const tag = `bulk-${Date.now()}`;
    await t.db.insert(users).values(
      Array.from({ length: UNPAGED_USERS_LIMIT + 5 }, (_, i) => ({
        email: `${tag}-${i}@example.com`,
        passwordHash: 'not-a-hash',
        firstName: tag,
      })),
    );
    const all = await call(t, 'GET', '/api/admin/users', { token: admin.token });
    expect(all.status).toBe(200);
    expect((all.body as AdminUser[]).length).toBe(UNPAGED_USERS_LIMIT);
    expect(Number(all.headers.get('x-total-count'))).toBeGreaterThan(UNPAGED_USERS_LIMIT);
    const found = await call(t, 'GET', `/api/admin/users?search=${tag}`, { token: admin.token });
    expect((found.body as AdminUser[]).length).toBe(UNPAGED_USERS_LIMIT);
    expect(found.headers.get('x-total-count')).toBe(String(UNPAGED_USERS_LIMIT + 5));
  });

  it('filters by ?role=staff, and refuses an unknown role with 400', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const staff = await createUser(t, { role: 'staff' });
    const res = await call(t, 'GET', '/api/admin/users?role=staff', { token: admin.token });
    expect(res.status).toBe(200);
    const list = res.body as AdminUser[];
    expect(list.every((u) => u.role === 'staff')).toBe(true);
    expect(list.map((u) => u.id)).toContain(staff.id);
    expect((await call(t, 'GET', '/api/admin/users?role=owner', { token: admin.token })).status).toBe(400);
  });
});

describe('POST /api/admin/users/{id}/role', () => {
  const changeRole = (by: TestUser, id: number | string, role: unknown) =>
    call(t, 'POST', `/api/admin/users/${id}/role`, { token: by.token, json: { role } });

  it('changes a role and answers 200 with the updated user; the change applies to the next request', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const customer = await createUser(t);
    const res = await changeRole(admin, customer.id, 'staff');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: customer.id,
      firstName: customer.firstName,
      lastName: customer.lastName,
      email: customer.email,
      role: 'staff',
      isActive: true,
      twoFactorEnabled: false,
    });
    const me = await call(t, 'GET', '/api/auth/user', { token: customer.token });
    expect((me.body as AuthUserResponse).role).toBe('staff');
    const back = await changeRole(admin, customer.id, 'user');
    expect((back.body as AdminUser).role).toBe('user');
    // Promote to admin, and the new admin can manage users at once.
    await changeRole(admin, customer.id, 'admin');
    expect((await call(t, 'GET', '/api/admin/users', { token: customer.token })).status).toBe(200);
  });

  it.each([
    ['an unknown role', 'owner'],
    ['a role in other letter case', 'Admin'],
    ['a missing role', undefined],
  ])('refuses %s with 400', async (_name, role) => {
    const admin = await createUser(t, { role: 'admin' });
    const customer = await createUser(t);
    const res = await changeRole(admin, customer.id, role);
    expect(res.status).toBe(400);
    expect((await rowOf(customer.id)).role).toBe('user');
  });

  it('answers 404 for an unknown user and 400 for an id that is not a number', async () => {
    const admin = await createUser(t, { role: 'admin' });
    expect((await changeRole(admin, 999_999, 'staff')).status).toBe(404);
    expect((await changeRole(admin, 'abc', 'staff')).status).toBe(400);
    expect((await changeRole(admin, 99_999_999_999, 'staff')).status).toBe(400);
  });
});

describe('the last admin', () => {
  let lone: TestApp;
  beforeAll(async () => {
    lone = await startTestApp();
  });
  afterAll(async () => {
    await lone?.close();
  });
  const changeRole = (by: TestUser, id: number, role: string) =>
    call(lone, 'POST', `/api/admin/users/${id}/role`, { token: by.token, json: { role } });

  it('cannot be demoted (409), by themself or otherwise; with a second admin, one of them can', async () => {
    const first = await createUser(lone, { role: 'admin' });
    for (const role of ['user', 'staff']) {
      const res = await changeRole(first, first.id, role);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: LAST_ADMIN_MESSAGE });
    }
    // Setting the role they already have is fine.
    expect((await changeRole(first, first.id, 'admin')).status).toBe(200);

    const second = await createUser(lone, { role: 'admin' });
    expect((await changeRole(first, second.id, 'staff')).status).toBe(200);
    expect((await changeRole(first, first.id, 'user')).status).toBe(409);
    // An inactive admin does not count as the one left to run the lab.
    const dormant = await createUser(lone, { role: 'admin', isActive: false });
    expect((await changeRole(first, first.id, 'user')).status).toBe(409);
    expect((await changeRole(first, dormant.id, 'user')).status).toBe(200);
  });

  it('two admins demoting each other at the same moment: exactly one succeeds', async () => {
    const rows = await lone.db.select().from(users).where(eq(users.role, 'admin'));
    await lone.db.update(users).set({ role: 'user' }).where(eq(users.role, 'admin'));
    const a = await createUser(lone, { role: 'admin' });
    const b = await createUser(lone, { role: 'admin' });
    const answers = await Promise.all([changeRole(a, b.id, 'user'), changeRole(b, a.id, 'user')]);
    const statuses = answers.map((r) => r.status).sort();
    // The loser is either refused as the last admin (409) or no longer an admin at all (403).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await lone.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    expect(rows.length).toBeGreaterThan(0);
  });
});
