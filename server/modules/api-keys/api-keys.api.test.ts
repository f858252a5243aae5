import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyCreated, ApiKeyListItem } from '../../../common/contracts/api-keys';
import { API_KEY_REQUESTS_PER_MINUTE, type ApiKeyScope } from '../../../common/domain/api-keys';
import { apiKeys, auditEvents, users } from '../../db/schema';
import { insertSample, issueReport, submissionForm } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// API keys (docs/product/partners.md): shown once, stored hashed, acting as their owner with the
// owner's current role for exactly the calls their scopes allow; revoked at once; limited per key.

let t: TestApp;
let customer: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;
let ownSampleId: number;
let othersSampleId: number;
let reportCode: string;

const createKey = async (owner: TestUser, scopes: ApiKeyScope[], name = 'Insurer system') => {
  const res = await call(t, 'POST', '/api/api-keys', { token: owner.token, json: { name, scopes } });
  expect(res.status, res.text).toBe(201);
  return res.body as ApiKeyCreated;
};

beforeAll(async () => {
  t = await startTestApp();
  [customer, other, staff, admin] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
  ownSampleId = (await insertSample(t.db, customer, { assignedStaffId: staff.id })).id;
  othersSampleId = (await insertSample(t.db, other)).id;
  reportCode = (await issueReport(t, ownSampleId, admin.token)).reportCode;
});
afterAll(async () => {
  await t?.close();
});

describe('managing API keys', () => {
  it('shows a key once, keeps only its SHA-256, and lists it without the key', async () => {
    const created = await createKey(customer, ['samples:read', 'samples:read']);
    expect(created.key).toMatch(/^vlk_[A-Za-z0-9_-]{43}$/);
    expect(created.scopes).toEqual(['samples:read']);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);
    const list = await call(t, 'GET', '/api/api-keys', { token: customer.token });
    expect(list.status).toBe(200);
    const mine = (list.body as ApiKeyListItem[]).find((k) => k.id === created.id);
    expect(mine).toMatchObject({ name: 'Insurer system', scopes: ['samples:read'], lastUsedAt: null });
    expect(list.text).not.toContain(created.key);
    // Another customer does not see it, nor revoke it.
    const theirs = await call(t, 'GET', '/api/api-keys', { token: other.token });
    expect((theirs.body as ApiKeyListItem[]).map((k) => k.id)).not.toContain(created.id);
    expect((await call(t, 'DELETE', `/api/api-keys/${created.id}`, { token: other.token })).status).toBe(404);
  });

  it('records when a key was last used', async () => {
    const created = await createKey(customer, ['samples:read']);
    expect((await call(t, 'GET', '/api/samples', { token: created.key })).status).toBe(200);
    const list = (await call(t, 'GET', '/api/api-keys', { token: customer.token })).body as ApiKeyListItem[];
    const used = list.find((k) => k.id === created.id);
    expect(used?.lastUsedAt).toBeTruthy();
    expect(Math.abs(Date.parse(String(used?.lastUsedAt)) - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a name or scopes that are missing or unknown (400) and staff members (403)', async () => {
    const noScope = await call(t, 'POST', '/api/api-keys', {
      token: customer.token,
      json: { name: 'x', scopes: [] },
    });
    expect(noScope.status).toBe(400);
    expect(noScope.body).toMatchObject({
      errors: [{ path: 'scopes', message: 'Choose at least one scope' }],
    });
    const unknown = await call(t, 'POST', '/api/api-keys', {
      token: customer.token,
      json: { name: 'x', scopes: ['admin:all'] },
    });
    expect(unknown.status).toBe(400);
    const noName = await call(t, 'POST', '/api/api-keys', {
      token: customer.token,
      json: { name: '  ', scopes: ['samples:read'] },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ message: 'Name is required' });
    const byStaff = await call(t, 'POST', '/api/api-keys', {
      token: staff.token,
      json: { name: 'x', scopes: ['samples:read'] },
    });
    expect(byStaff.status).toBe(403);
    expect((await call(t, 'GET', '/api/api-keys', { token: staff.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/api-keys')).status).toBe(401);
  });
});

describe('calls made with a key', () => {
  it('samples:read reads the owner’s samples only, and nothing else', async () => {
    const { key } = await createKey(customer, ['samples:read']);
    const list = await call(t, 'GET', '/api/samples', { token: key });
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).map((s) => s.id)).toEqual([ownSampleId]);
    expect((await call(t, 'GET', `/api/samples/${ownSampleId}`, { token: key })).status).toBe(200);
    expect((await call(t, 'GET', `/api/samples/${othersSampleId}`, { token: key })).status).toBe(404);
    // Not in its scopes: 403, whatever the owner could do with a session.
    const submit = await call(t, 'POST', '/api/samples', { token: key, form: submissionForm() });
    expect(submit.status).toBe(403);
    expect(submit.body).toEqual({ message: 'This API key does not allow this call' });
    expect((await call(t, 'GET', `/api/report/${reportCode}/pdf`, { token: key })).status).toBe(403);
    // Calls that name no scope are closed to every key: the account, the keys themselves.
    expect((await call(t, 'GET', '/api/auth/user', { token: key })).status).toBe(403);
    expect((await call(t, 'GET', '/api/api-keys', { token: key })).status).toBe(403);
    const another = await call(t, 'POST', '/api/api-keys', {
      token: key,
      json: { name: 'x', scopes: ['samples:write'] },
    });
    expect(another.status).toBe(403);
    expect((await call(t, 'PUT', '/api/users/password', { token: key, json: {} })).status).toBe(403);
  });

  it('samples:write submits a sample as the owner, and reads nothing', async () => {
    const { key } = await createKey(customer, ['samples:write']);
    const submit = await call(t, 'POST', '/api/samples', { token: key, form: submissionForm() });
    expect(submit.status, submit.text).toBe(201);
    const detail = await call(t, 'GET', `/api/samples/${(submit.body as { id: number }).id}`, {
      token: customer.token,
    });
    expect((detail.body as { userId: number }).userId).toBe(customer.id);
    expect((await call(t, 'GET', '/api/samples', { token: key })).status).toBe(403);
  });

  it('reports:read downloads the owner’s report PDF, not another’s', async () => {
    const { key } = await createKey(customer, ['reports:read']);
    const pdf = await call(t, 'GET', `/api/report/${reportCode}/pdf`, { token: key });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    const { key: othersKey } = await createKey(other, ['reports:read']);
    expect((await call(t, 'GET', `/api/report/${reportCode}/pdf`, { token: othersKey })).status).toBe(404);
    expect((await call(t, 'GET', '/api/samples', { token: key })).status).toBe(403);
  });

  it('an admin’s key reads the lab’s samples with the admin’s current role', async () => {
    const keyAdmin = await createUser(t, { role: 'admin' });
    const { key } = await createKey(keyAdmin, ['samples:read', 'samples:write']);
    const all = await call(t, 'GET', '/api/admin/samples', { token: key });
    expect(all.status).toBe(200);
    expect((all.body as { id: number }[]).map((s) => s.id)).toEqual(
      expect.arrayContaining([ownSampleId, othersSampleId]),
    );
    const status = await call(t, 'POST', `/api/staff/samples/${othersSampleId}/status`, {
      token: key,
      json: { status: 'in-progress' },
    });
    expect(status.status, status.text).toBe(200);
    // Revoking a key needs a session (admin-only calls stay closed to keys).
    expect((await call(t, 'GET', '/api/admin/users', { token: key })).status).toBe(403);
    // The owner is no longer an admin: the key loses the lab's lists at once.
    await t.db.update(users).set({ role: 'user' }).where(eq(users.id, keyAdmin.id));
    expect((await call(t, 'GET', '/api/admin/samples', { token: key })).status).toBe(403);
    expect((await call(t, 'GET', '/api/samples', { token: key })).status).toBe(200);
  });

  it('stops working at once when revoked, when its owner is deactivated, or when it is not a key', async () => {
    const created = await createKey(customer, ['samples:read']);
    expect((await call(t, 'GET', '/api/samples', { token: created.key })).status).toBe(200);
    const revoked = await call(t, 'DELETE', `/api/api-keys/${created.id}`, { token: customer.token });
    expect(revoked.status).toBe(200);
    expect((await call(t, 'GET', '/api/samples', { token: created.key })).status).toBe(401);
    const list = (await call(t, 'GET', '/api/api-keys', { token: customer.token })).body as ApiKeyListItem[];
    expect(list.map((k) => k.id)).not.toContain(created.id);
    expect((await call(t, 'DELETE', `/api/api-keys/${created.id}`, { token: customer.token })).status).toBe(
      404,
    );
    // Both changes are in the audit trail, with the key's name but never the key.
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, String(created.id)));
    const about = events.filter((e) => e.subjectType === 'api_key');
    expect(about.map((e) => [e.action, e.actorId])).toEqual([
      ['api_key.created', customer.id],
      ['api_key.revoked', customer.id],
    ]);
    expect(JSON.stringify(about)).not.toContain(created.key);

    const leaving = await createUser(t);
    const { key } = await createKey(leaving, ['samples:read']);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, leaving.id));
    expect((await call(t, 'GET', '/api/samples', { token: key })).status).toBe(401);

    expect((await call(t, 'GET', '/api/samples', { token: `${created.key.slice(0, -2)}xx` })).status).toBe(
      401,
    );
  });

  it(`allows ${API_KEY_REQUESTS_PER_MINUTE} calls a minute per key, then 429 with Retry-After`, async () => {
    const { key } = await createKey(customer, ['samples:read']);
    const { key: second } = await createKey(customer, ['samples:read']);
    const statuses: number[] = [];
    for (let i = 0; i < API_KEY_REQUESTS_PER_MINUTE; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, () => call(t, 'GET', '/api/samples', { token: key })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const over = await call(t, 'GET', '/api/samples', { token: key });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // The limit is the key's: another key of the same owner, and the owner's session, still pass.
    expect((await call(t, 'GET', '/api/samples', { token: second })).status).toBe(200);
    expect((await call(t, 'GET', '/api/samples', { token: customer.token })).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('names the scope of every call a key may make, and none for the others', async () => {
    const doc = (await call(t, 'GET', '/api/docs/json')).body as {
      paths: Record<string, Record<string, { 'x-api-key-scope'?: string; security?: unknown[] }>>;
    };
    expect(doc.paths['/api/samples']?.get?.['x-api-key-scope']).toBe('samples:read');
    expect(doc.paths['/api/samples']?.post?.['x-api-key-scope']).toBe('samples:write');
    expect(doc.paths['/api/report/{reportCode}/pdf']?.get?.['x-api-key-scope']).toBe('reports:read');
    expect(doc.paths['/api/samples']?.get?.security).toEqual([{ bearer: [] }, { apiKey: ['samples:read'] }]);
    expect(doc.paths['/api/auth/user']?.get?.['x-api-key-scope']).toBeUndefined();
    expect(doc.paths['/api/api-keys']?.post?.['x-api-key-scope']).toBeUndefined();
  });
});
