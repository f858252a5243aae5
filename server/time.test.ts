import { describe, expect, it } from 'vitest';
import { isoDate } from './time';

describe('isoDate', () => {
  it("rewrites PostgreSQL's UTC text exactly as a Date would format it", () => {
    const texts = [
      '2026-11-23T08:13:00.123456+00:00',
      '2026-11-23T08:13:00.123999+00:00',
      '2026-11-23T08:13:00.1+00:00',
      '2026-11-23T08:13:00.12+00:00',
      '2026-11-23T08:13:00.123+00:00',
      '2026-11-23T08:13:00+00:00',
      '2024-02-29T23:59:59.999999+00:00',
      '1999-12-31T00:00:00.000001+00:00',
    ];
    for (const text of texts) expect(isoDate(text), text).toBe(new Date(text).toISOString());
  });

  it('parses any other offset or form through a Date', () => {
    expect(isoDate('2026-11-23T09:13:00.5+01:00')).toBe('2026-11-23T08:13:00.500Z');
    expect(isoDate('2026-11-23 08:13:00+00')).toBe(new Date('2026-11-23 08:13:00+00').toISOString());
    expect(isoDate('2026-11-23T08:13:00Z')).toBe('2026-11-23T08:13:00.000Z');
    expect(isoDate(new Date(Date.UTC(2026, 10, 23, 8, 13)))).toBe('2026-11-23T08:13:00.000Z');
  });

  it("keeps text already in the answers' form as it is, and checks it is that form", () => {
    for (const text of ['2026-11-23T08:13:00.123Z', '2024-02-29T23:59:59.999Z'])
      expect(isoDate(text)).toBe(new Date(text).toISOString());
    // Two decimals, or none, or another offset: not the answers' form, so rewritten.
    expect(isoDate('2026-11-23T08:13:00.12Z')).toBe('2026-11-23T08:13:00.120Z');
    expect(isoDate('2026-11-23T08:13:00.123+01:00')).toBe('2026-11-23T07:13:00.123Z');
  });
});
