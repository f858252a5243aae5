import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { sampleFiles, samples, submissionReservations } from '../../server/db/schema';
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

/** Each user's stored samples and the bytes of their files, read from the database. */
async function usageOf(app: TestApp, userId: number) {
  const rows = await app.db
    .select({ size: sampleFiles.fileSize })
    .from(sampleFiles)
    .innerJoin(samples, eq(samples.id, sampleFiles.sampleId))
    .where(eq(samples.userId, userId));
  const [n] = await app.db.select({ n: count() }).from(samples).where(eq(samples.userId, userId));
  return { samples: n?.n ?? 0, bytes: rows.reduce((sum, r) => sum + r.size, 0) };
}

describe('per-customer limits under parallel requests', () => {
  it('eight submissions at once with an hourly limit of 2 store exactly 2 samples; the rest are 429', async () => {
    const u = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(t, 'POST', '/api/samples', { token: u.token, form: form(JPEG) })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429, 429, 429]);
    expect((await usageOf(t, u.id)).samples).toBe(2);
    // Every reservation was ended: by the stored sample or by the refusal.
    expect(
      await t.db.select().from(submissionReservations).where(eq(submissionReservations.userId, u.id)),
    ).toEqual([]);
  });

  it('a failed submission gives its reservation back: the hourly limit still allows two samples', async () => {
    const u = await createUser(t);
    const broken = new FormData();
    broken.append('itemName', 'No photo and no services');
    for (let i = 0; i < 3; i++)
      expect((await call(t, 'POST', '/api/samples', { token: u.token, form: broken })).status).toBe(400);
    for (let i = 0; i < 2; i++)
      expect((await call(t, 'POST', '/api/samples', { token: u.token, form: form(JPEG) })).status).toBe(201);
    expect((await call(t, 'POST', '/api/samples', { token: u.token, form: form(JPEG) })).status).toBe(429);
  });

  it('the byte allowance holds when submissions race: five of 300 KB at once against 1 MB store at most 1 MB', async () => {
    const wide = await startTestApp({ CUSTOMER_SUBMISSIONS_PER_HOUR: '100', CUSTOMER_STORAGE_MB: '1' });
    try {
      const u = await createUser(wide);
      const photo = jpegOf(300 * 1024);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          call(wide, 'POST', '/api/samples', { token: u.token, form: form(photo) }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 201).length;
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(413);
        expect(a.body).toEqual({ message: expect.stringMatching(/storage limit of 1 MB/) });
      }
      expect(accepted).toBeGreaterThanOrEqual(1);
      expect(accepted).toBeLessThanOrEqual(3);
      const usage = await usageOf(wide, u.id);
      expect(usage.samples).toBe(accepted);
      expect(usage.bytes).toBeLessThanOrEqual(1024 * 1024);
      // Nothing of a refused submission stays in storage: one file per stored sample.
      expect((await wide.storage.list('uploads')).length).toBe(accepted);
    } finally {
      await wide.close();
    }
  }, 120_000);
});
