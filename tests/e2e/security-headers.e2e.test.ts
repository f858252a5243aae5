import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';

// Security headers on the built product: the HTML page, API answers (JSON, errors, PDF, files) and
// static assets. CSP without 'unsafe-inline' scripts, no framing, nosniff, a referrer policy; tokens
// travel only in the Authorization header and are never cached or set as cookies.

let product: Product;

/**
 * fetch, with the answer's body read to its end. A body left unread keeps its connection busy, and the
 * product's graceful stop waits for every busy connection: one unread script made this file's stop
 * take 5-20 s.
 */
async function read(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res;
}
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => {
  await product?.stop();
});

function expectSecure(res: Response, what: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
  // A directive that is absent falls back to default-src (JSON answers: default-src 'none').
  const scriptSrc = directives['script-src'] ?? directives['default-src'] ?? [];
  expect(scriptSrc, `${what}: script-src`).toBeTruthy();
  expect(scriptSrc, `${what}: script-src`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${what}: script-src`).not.toContain("'unsafe-eval'");
  expect(directives['frame-ancestors'], `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(directives['object-src'] ?? directives['default-src'], `${what}: object-src`).toEqual(["'none'"]);
  if (/^application\/json/.test(res.headers.get('content-type') ?? ''))
    expect(directives['default-src'], `${what}: a JSON answer allows nothing`).toEqual(["'none'"]);
  else expect(directives['default-src'], `${what}: default-src`).toEqual(["'self'"]);
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-frame-options'), what).toMatch(/DENY|SAMEORIGIN/i);
  expect(res.headers.get('x-powered-by'), what).toBeNull();
  expect(res.headers.get('set-cookie'), what).toBeNull();
}

describe('security headers', () => {
  it('on the HTML page and a client route', async () => {
    for (const path of ['/', '/dashboard', '/verify-report?code=ABCDEFGH']) {
      const res = await fetch(`${product.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expectSecure(res, path);
      const html = await res.text();
      // No inline script in the page itself: every script is a same-origin file.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    }
  });

  it('on HEAD of the page and a client route, which answer as GET does without the body', async () => {
    for (const path of ['/', '/dashboard', '/verify-report?code=ABCDEFGH']) {
      const get = await read(`${product.url}${path}`);
      const head = await fetch(`${product.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-type'), path).toMatch(/text\/html/);
      expect(head.headers.get('content-length'), path).toBe(get.headers.get('content-length'));
      expectSecure(head, `HEAD ${path}`);
      expect(await head.text(), path).toBe('');
    }
    // Server paths stay 404 for HEAD as for GET.
    const api = await read(`${product.url}/api/no-such-call`, { method: 'HEAD' });
    expect(api.status).toBe(404);
    expectSecure(api, 'HEAD /api/no-such-call');
  });

  it('on API answers: JSON, errors, login, files and PDFs', async () => {
    const login = await fetch(`${product.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(E2E_ADMIN),
    });
    expect(login.status).toBe(200);
    expectSecure(login, 'POST /login');
    const { token } = (await login.json()) as { token: string };
    for (const [path, status] of [
      ['/api/health', 200],
      ['/api/auth/user', 401],
      ['/api/no-such-call', 404],
      ['/Uploads/nothing.jpg', 401],
      ['/api/reports/verify/ZZZZZZZZ', 404],
    ] as const) {
      const res = await read(`${product.url}${path}`);
      expect(res.status, path).toBe(status);
      expectSecure(res, path);
    }
    const me = await read(`${product.url}/api/auth/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expectSecure(me, 'GET /api/auth/user');
    // A token in the query string or a cookie is not a credential.
    expect((await read(`${product.url}/api/auth/user?token=${token}`)).status).toBe(401);
    expect(
      (await read(`${product.url}/api/auth/user`, { headers: { cookie: `token=${token}` } })).status,
    ).toBe(401);
  });

  it('on static assets', async () => {
    const html = await (await fetch(`${product.url}/`)).text();
    const src = /<script[^>]*src="([^"]+)"/.exec(html)?.[1];
    expect(src).toBeTruthy();
    const res = await read(`${product.url}${src}`);
    expect(res.status).toBe(200);
    expectSecure(res, String(src));
  });
});
