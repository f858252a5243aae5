import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../tests/support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('foundation over HTTP', () => {
  it('answers health with the database check', async () => {
    const res = await call(t, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document publicly', async () => {
    const res = await call(t, 'GET', '/api/docs/json');
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/health', '/login', '/api/register', '/api/auth/user']),
    );
  });

  it('refuses unknown API routes with a JSON 404, and guarded routes without a token with 401', async () => {
    const missing = await call(t, 'GET', '/api/no-such-route');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ message: expect.any(String) });
    const guarded = await call(t, 'GET', '/api/auth/user');
    expect(guarded.status).toBe(401);
    expect(guarded.body).toEqual({ message: 'Authentication required' });
  });

  it('answers malformed JSON with 400 and an oversized body with 413, never 500', async () => {
    const bad = await call(t, 'POST', '/login', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'Malformed JSON body' });
    const big = await call(t, 'POST', '/login', {
      rawBody: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
  });

  it('sends security headers', async () => {
    const res = await call(t, 'GET', '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy') ?? '';
    // A JSON answer: a policy that allows nothing (docs/product/security.md).
    expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
