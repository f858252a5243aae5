import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders } from './security-headers';

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
});
