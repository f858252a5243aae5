import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSettings } from '../../../common/contracts/lab';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url));

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

function settingsForm(settings: unknown, logo?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  form.append('settings', typeof settings === 'string' ? settings : JSON.stringify(settings));
  if (logo) form.append('logo', new Blob([new Uint8Array(logo.bytes)], { type: logo.type }), logo.name);
  return form;
}

const valid = {
  labName: 'Harbor Valuation Lab',
  address: '1 Quay Street',
  phone: '',
  email: 'lab@example.com',
  website: 'https://lab.example.com',
  certificationNumber: 'CERT-42',
};

describe('/api/lab/settings', () => {
  it('matrix: anonymous 401, customer and staff 403, admin 200 (empty settings are nulls)', async () => {
    expect((await call(t, 'GET', '/api/lab/settings')).status).toBe(401);
    expect((await call(t, 'GET', '/api/lab/settings', { token: customer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/lab/settings', { token: staff.token })).status).toBe(403);
    const res = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      labName: null,
      address: null,
      phone: null,
      email: null,
      website: null,
      certificationNumber: null,
      logo: null,
    });
    for (const token of [undefined, customer.token, staff.token]) {
      const post = await call(t, 'POST', '/api/lab/settings', { token, form: settingsForm(valid) });
      expect(post.status).toBe(token ? 403 : 401);
    }
  });

  it('saves settings with empty fields as null and a logo stored under logo/, replacing the old one', async () => {
    const first = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('photo.png'), name: 'logo.png', type: 'image/png' }),
    });
    expect(first.status).toBe(200);
    const saved = first.body as LabSettings;
    expect(saved).toMatchObject({ ...valid, phone: null });
    expect(saved.logo).toMatch(/^\/Uploads\/logo\/[a-f0-9]{32}\.png$/);
    const firstKey = (saved.logo ?? '').replace('/Uploads/', '');
    expect(await t.storage.exists(firstKey)).toBe(true);

    const logoFile = await call(t, 'GET', saved.logo ?? '', { token: staff.token });
    expect(logoFile.status).toBe(200);

    const second = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(
        { ...valid, address: '  ' },
        { bytes: fixture('photo.jpg'), name: 'logo.jpg', type: 'image/jpeg' },
      ),
    });
    expect(second.status).toBe(200);
    const replaced = second.body as LabSettings;
    expect(replaced.address).toBeNull();
    expect(replaced.logo).toMatch(/^\/Uploads\/logo\/[a-f0-9]{32}\.jpg$/);
    expect(await t.storage.exists(firstKey)).toBe(false);
    expect(await t.storage.list('logo/')).toHaveLength(1);

    // Saving without a logo keeps the current one.
    const third = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid),
    });
    expect((third.body as LabSettings).logo).toBe(replaced.logo);
    const read = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(read.body).toEqual(third.body);
  });

  it('refuses invalid settings with the spec messages and stores no logo', async () => {
    const before = await t.storage.list('logo/');
    const cases: [unknown, string][] = [
      [{ ...valid, labName: '' }, 'Lab name is required'],
      [{ ...valid, labName: undefined }, 'Lab name is required'],
      [{ ...valid, website: 'not a url' }, 'Invalid URL'],
      [{ ...valid, email: 'nope' }, 'Invalid email address'],
    ];
    for (const [settings, message] of cases) {
      const res = await call(t, 'POST', '/api/lab/settings', {
        token: admin.token,
        form: settingsForm(settings, { bytes: fixture('photo.png'), name: 'l.png', type: 'image/png' }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        message,
        errors: expect.arrayContaining([expect.objectContaining({ message })]),
      });
    }
    const notJson = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm('{oops'),
    });
    expect(notJson.status).toBe(400);
    const noSettings = new FormData();
    noSettings.append('other', 'x');
    expect(
      (await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: noSettings })).status,
    ).toBe(400);
    const json = await call(t, 'POST', '/api/lab/settings', { token: admin.token, json: valid });
    expect(json.status).toBe(400);
    expect(await t.storage.list('logo/')).toEqual(before);
  });

  it('refuses a logo that is not JPEG/PNG by content (415) or 2 MB and more (413)', async () => {
    const before = await t.storage.list('logo/');
    const fake = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('not-an-image.png'), name: 'logo.png', type: 'image/png' }),
    });
    expect(fake.status).toBe(415);
    expect(fake.body).toEqual({ message: 'Only JPEG or PNG files are allowed' });
    const pdf = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('document.pdf'), name: 'logo.jpg', type: 'image/jpeg' }),
    });
    expect(pdf.status).toBe(415);
    const png = fixture('photo.png');
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 - png.length)]);
    const tooBig = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: big, name: 'big.png', type: 'image/png' }),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ message: 'File size must be less than 2MB' });
    expect(await t.storage.list('logo/')).toEqual(before);
  });
});
