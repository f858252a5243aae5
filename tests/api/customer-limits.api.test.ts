import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, startTestApp, type TestApp } from '../support/test-app';

// Per-customer limits (docs/product/security.md): submissions per hour (429) and stored bytes (413),
// each with a clear message; a refused submission stores nothing.

const JPEG = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'photo.jpg'));
const FIELDS: Record<string, string> = {
  submitterName: 'Ada Lovelace',
  submitterEmail: 'ada@example.com',
  submitterPhone: '+44 20 7946 0000',
  submitterCountry: 'united-kingdom',
  isPersonalSubmission: 'true',
  itemName: 'Teapot',
  category: 'furniture-decorative',
  description: 'Silver teapot.',
  expertValuation: 'true',
  authenticityCheck: 'false',
  conditionAssessment: 'false',
  provenanceResearch: 'false',
  purposeOfValuation: 'insurance',
  urgencyLevel: 'standard',
  estimatedValueRange: '1000-5000',
};
const form = (photo: Buffer) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(FIELDS)) f.append(k, v);
  f.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'p.jpg');
  return f;
};
/** A JPEG of about `bytes` (the real header, padded). */
const jpegOf = (bytes: number) => {
  const big = Buffer.alloc(bytes, 0x20);
  JPEG.copy(big);
  return big;
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CUSTOMER_SUBMISSIONS_PER_HOUR: '2', CUSTOMER_STORAGE_MB: '1' });
});
afterAll(async () => {
  await t?.close();
});

describe('per-customer limits', () => {
  it('submissions per hour: the next one is 429 with a clear message and Retry-After; others are unaffected', async () => {
    const u = await createUser(t);
    for (let i = 0; i < 2; i++)
      expect((await call(t, 'POST', '/api/samples', { token: u.token, form: form(JPEG) })).status).toBe(201);
    const before = await t.storage.list('uploads');
    const refused = await call(t, 'POST', '/api/samples', { token: u.token, form: form(JPEG) });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: expect.stringMatching(/2 samples in the last hour/) });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await t.storage.list('uploads')).toEqual(before);
    const other = await createUser(t);
    expect((await call(t, 'POST', '/api/samples', { token: other.token, form: form(JPEG) })).status).toBe(
      201,
    );
  });

  it('stored bytes: a submission that would pass the allowance is 413 and stores nothing', async () => {
    const u = await createUser(t);
    expect(
      (await call(t, 'POST', '/api/samples', { token: u.token, form: form(jpegOf(700 * 1024)) })).status,
    ).toBe(201);
    const before = await t.storage.list('uploads');
    const refused = await call(t, 'POST', '/api/samples', { token: u.token, form: form(jpegOf(700 * 1024)) });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ message: expect.stringMatching(/storage limit of 1 MB/) });
    expect(await t.storage.list('uploads')).toEqual(before);
    const mine = await call(t, 'GET', '/api/samples', { token: u.token });
    expect((mine.body as unknown[]).length).toBe(1);
  });
});
