import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers } from '../support/factories';
import { call, startTestApp, type TestApp, type TestUser } from '../support/test-app';

// No browser or proxy keeps an API answer that carries a token or personal data
// (docs/product/security.md).
let t: TestApp;
let customer: TestUser;
let staff: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [customer, staff, admin] = await createUsers(t, 'user', 'staff', 'admin');
});
afterAll(async () => {
  await t?.close();
});

describe('Cache-Control on API answers', () => {
  it('is private, no-store on every answer to a signed-in request', async () => {
    const calls: [TestUser, string][] = [
      [customer, '/api/auth/user'],
      [customer, '/api/samples'],
      [staff, '/api/staff/samples'],
      [admin, '/api/admin/samples'],
      [admin, '/api/admin/users'],
      [admin, '/api/lab/settings'],
      [customer, '/api/staff/samples'], // a refusal (403) is not cached either
    ];
    for (const [user, path] of calls) {
      const res = await call(t, 'GET', path, { token: user.token });
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
    }
  });

  it('is no-store on the answers that hand out a token, and on refusals', async () => {
    const login = await call(t, 'POST', '/login', {
      json: { email: customer.email, password: customer.password },
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const reg = await call(t, 'POST', '/api/register', {
      json: { email: 'cache@check.test', password: 'long-enough-1', firstName: 'C', lastName: 'D' },
    });
    expect(reg.status).toBe(201);
    expect(reg.headers.get('cache-control')).toBe('no-store');
    const anonymous = await call(t, 'GET', '/api/samples');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the public key set cacheable (not an API answer)', async () => {
    const res = await call(t, 'GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('max-age');
  });
});
