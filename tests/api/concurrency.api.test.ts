import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportRevisions } from '../../server/db/schema';
import { insertSample } from '../support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../support/test-app';

// Concurrent writes to one sample (two staff tabs, two instances): each answer is either a success
// whose document is stored whole, or a clear conflict; no stored revision loses its file.

let t: TestApp;
let admin: TestUser;
let customer: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  customer = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

async function newSample() {
  return (await insertSample(t.db, customer, { status: 'analysis' })).id;
}

const issue = (id: number, pct: number) =>
  call(t, 'POST', `/api/staff/samples/${id}/report`, {
    token: admin.token,
    json: { elements: [{ element: 'Gold', percentage: pct, purity: null, quality: null, notes: null }] },
  });

describe('concurrent report issues on one sample', () => {
  it('first issue raced 6 ways: successes and 409s only, every revision row has its exact file', async () => {
    const id = await newSample();
    const answers = await Promise.all([10, 20, 30, 40, 50, 60].map((p) => issue(id, p)));
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    await expectConsistent(id);
  });

  it('re-issues raced 6 ways keep every stored revision whole', async () => {
    const id = await newSample();
    expect((await issue(id, 5)).status).toBe(200);
    const answers = await Promise.all([11, 22, 33, 44, 55, 66].map((p) => issue(id, p)));
    for (const a of answers) expect([200, 409]).toContain(a.status);
    await expectConsistent(id);
  });
});

async function expectConsistent(sampleId: number) {
  const rows = await t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, sampleId));
  expect(rows.length).toBeGreaterThan(0);
  const revisions = rows.map((r) => r.revision).sort((a, b) => a - b);
  expect(revisions).toEqual(revisions.map((_, i) => i + 1));
  for (const r of rows) {
    const bytes = await t.storage.read(r.storageKey);
    expect(createHash('sha256').update(bytes).digest('hex'), r.storageKey).toBe(r.sha256);
  }
  const code = rows[0]?.reportCode;
  expect(rows.every((r) => r.reportCode === code)).toBe(true);
  const stored = (await t.storage.list('reports')).filter((k) => k.includes(code ?? '?'));
  expect(stored.sort()).toEqual(rows.map((r) => r.storageKey).sort());
  const pdf = await call(t, 'GET', `/api/report/${code}/pdf`, { token: admin.token });
  expect(pdf.status).toBe(200);
}
