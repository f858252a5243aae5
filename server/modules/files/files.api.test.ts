import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleDetail } from '../../../common/contracts/samples';
import {
  DOCUMENT_PDF as PDF,
  PHOTO_JPEG as JPEG,
  photoFile,
  submissionFields,
  submissionForm,
} from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;
let photoName: string;
let documentName: string;

beforeAll(async () => {
  t = await startTestApp();
  [owner, other, staff, admin] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
  const form = submissionForm(
    submissionFields({
      submitterName: 'Owner',
      submitterEmail: 'owner@example.com',
      itemName: 'Clock',
      category: 'other',
      description: 'A mantel clock',
    }),
    [photoFile('clock front.jpg'), { field: 'documents', name: 'invoice.pdf', bytes: PDF }],
  );
  const created = await call(t, 'POST', '/api/samples', { token: owner.token, form });
  expect(created.status).toBe(201);
  const detail = await call(t, 'GET', `/api/samples/${(created.body as { id: number }).id}`, {
    token: owner.token,
  });
  const files = (detail.body as SampleDetail).files;
  photoName = files.find((f) => f.fileCategory === 'photo')?.fileName ?? '';
  documentName = files.find((f) => f.fileCategory === 'document')?.fileName ?? '';
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, user?: TestUser) =>
  fetch(`${t.url}${path}`, { headers: user ? { authorization: `Bearer ${user.token}` } : {} });

describe('/Uploads/{fileName}', () => {
  it('serves a sample file to its owner, staff and admins with its type, nosniff and inline disposition', async () => {
    for (const who of [owner, staff, admin]) {
      const res = await get(`/Uploads/${photoName}`, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="clock front.jpg"$/);
      expect(Buffer.from(await res.arrayBuffer()).equals(JPEG)).toBe(true);
    }
    const pdf = await get(`/Uploads/${documentName}`, owner);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('answers 404 to another customer, exactly as for a file that does not exist', async () => {
    const foreign = await get(`/Uploads/${photoName}`, other);
    const missing = await get('/Uploads/0123456789abcdef0123456789abcdef.jpg', other);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await foreign.text()).toBe(await missing.text());
  });

  it('answers 401 to a visitor', async () => {
    expect((await get(`/Uploads/${photoName}`)).status).toBe(401);
  });

  it('never leaves the storage folder', async () => {
    writeFileSync(join(t.dataDir, 'secret.txt'), 'TOP-SECRET');
    writeFileSync(join(t.filesDir, 'secret.txt'), 'TOP-SECRET');
    for (const path of [
      '/Uploads/..%2Fsecret.txt',
      '/Uploads/..%2F..%2Fsecret.txt',
      '/Uploads/%2E%2E%2Fsecret.txt',
      '/Uploads/../secret.txt',
      '/Uploads/..%5Csecret.txt',
      '/Uploads/profile/..%2F..%2Fsecret.txt',
      '/Uploads/profile/../secret.txt',
      '/Uploads/.hidden',
    ]) {
      const res = await get(path, admin);
      expect([400, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('TOP-SECRET');
    }
  });

  it('does not list the folder', async () => {
    const res = await call(t, 'GET', '/Uploads/', { token: admin.token });
    expect([400, 404]).toContain(res.status);
  });
});
