import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, JSON_SECURITY_HEADERS, registerSecurityHeaders } from './security-headers';

describe('security headers', () => {
  it('computes the lab policy once: strict scripts, no framing, no insecure-upgrade, no HSTS', () => {
    const h = computeSecurityHeaders();
    expect(h['content-security-policy']).toBe(
      "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';frame-src 'self' blob:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
    );
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('SAMEORIGIN');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(h['strict-transport-security']).toBeUndefined();
    expect(h['cross-origin-embedder-policy']).toBeUndefined();
    expect(h['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends documents the full set and JSON answers the strict short one; a header a route set is kept', async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    app.get('/page', (_req, reply) => reply.type('text/html; charset=utf-8').send('<p>hi</p>'));
    app.get('/pdf', (_req, reply) => reply.type('application/pdf').send(Buffer.from('%PDF-1.7')));
    app.get('/data', async () => ({ ok: true }));
    app.get('/text-json', (_req, reply) => reply.type('application/json; charset=utf-8').send('{"a":1}'));
    app.get('/framed', (_req, reply) => reply.header('x-frame-options', 'SAMEORIGIN').send({ ok: true }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    const documentHeaders = computeSecurityHeaders();
    for (const url of ['/page', '/pdf']) {
      const res = await app.inject({ url });
      for (const [name, value] of Object.entries(documentHeaders))
        expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
    // JSON: the route's own answers, an error, and the 404 of an unknown path.
    for (const [url, status] of [
      ['/data', 200],
      ['/text-json', 200],
      ['/boom', 500],
      ['/nothing-here', 404],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      for (const [name, value] of Object.entries(JSON_SECURITY_HEADERS))
        expect(res.headers[name], `${url} ${name}`).toBe(value);
      // None of the document-only headers (cross-origin opener policy, DNS prefetch control…).
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control'], url).toBeUndefined();
    }
    expect(JSON_SECURITY_HEADERS['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const framed = await app.inject({ url: '/framed' });
    expect(framed.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(framed.headers['x-content-type-options']).toBe('nosniff');
    await app.close();
  });
});
