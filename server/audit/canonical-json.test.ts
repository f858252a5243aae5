import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('sorts object keys at every depth, whatever order they were built in', () => {
    const a = { b: 1, a: { z: [3, { y: true, x: null }], c: 'd' } };
    const b = { a: { c: 'd', z: [3, { x: null, y: true }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":"d","z":[3,{"x":null,"y":true}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
  });

  it('keeps array order (an array is a sequence, not a set)', () => {
    expect(canonicalJson([2, 1])).toBe('[2,1]');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    // Upper case before lower case, and "€" (U+20AC) before the astral "😀" (surrogates D83D…).
    expect(canonicalJson({ b: 1, B: 2, '😀': 3, '€': 4, '': 5 })).toBe('{"":5,"B":2,"b":1,"€":4,"😀":3}');
  });

  it('writes strings and numbers as JSON.stringify does', () => {
    expect(canonicalJson('line\nquote" back\\ tab\t \u0001')).toBe(
      JSON.stringify('line\nquote" back\\ tab\t \u0001'),
    );
    expect(canonicalJson([1, -0, 0.1, 1e21, 1e-7, -12.5])).toBe('[1,0,0.1,1e+21,1e-7,-12.5]');
  });

  it('leaves out undefined fields and writes undefined array elements as null', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
  });

  it('writes dates as their ISO text', () => {
    expect(canonicalJson({ at: new Date('2026-03-03T10:00:00.123Z') })).toBe(
      '{"at":"2026-03-03T10:00:00.123Z"}',
    );
  });

  it('answers the same text for a value and for that text parsed back', () => {
    const value = { é: 'ü', n: [1.5, { k: 'v' }], t: true, z: null };
    const text = canonicalJson(value);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it('refuses values JSON cannot hold faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/value\.n is not a finite number/);
    expect(() => canonicalJson([Infinity])).toThrow(/not a finite number/);
    expect(() => canonicalJson({ big: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });
});
