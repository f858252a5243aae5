import { describe, expect, it } from 'vitest';
import {
  formatMoney,
  isCurrencyCode,
  minorDigits,
  minorToDecimal,
  minorToNumber,
  parseAmount,
  sumMinor,
  surchargeMinor,
} from './money';

const minor = (value: unknown, currency = 'EUR') => {
  const r = parseAmount(value, currency);
  if (!r.ok) throw new Error(r.message);
  return r.minor;
};

describe('money', () => {
  it('reads amounts into integer minor units without float errors', () => {
    expect(minor(0.1)).toBe(10);
    expect(minor('0.2')).toBe(20);
    expect(minor(1.15)).toBe(115); // 1.15 * 100 is 114.99999999999999
    expect(minor('120')).toBe(12000);
    expect(minor(' 99.9 ')).toBe(9990);
    expect(minor('5', 'JPY')).toBe(5);
    expect(minor('1.234', 'KWD')).toBe(1234);
  });

  it('sums 0.10 + 0.20 to exactly 0.30', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    const total = sumMinor([minor(0.1), minor(0.2)]);
    expect(total).toBe(30);
    expect(minorToDecimal(total, 'EUR')).toBe('0.30');
    expect(minorToNumber(total, 'EUR')).toBe(0.3);
  });

  it('refuses negative, malformed, over-precise and huge amounts', () => {
    expect(parseAmount(-1, 'EUR')).toMatchObject({ ok: false, message: 'The amount cannot be negative' });
    expect(parseAmount('abc', 'EUR').ok).toBe(false);
    expect(parseAmount('1e3', 'EUR').ok).toBe(false);
    expect(parseAmount(Number.NaN, 'EUR').ok).toBe(false);
    expect(parseAmount(null, 'EUR').ok).toBe(false);
    expect(parseAmount('0.001', 'EUR')).toMatchObject({ ok: false, message: 'Use at most 2 decimals' });
    expect(parseAmount('1.5', 'JPY')).toMatchObject({ ok: false, message: 'This currency has no decimals' });
    expect(parseAmount('1.50', 'EUR').ok).toBe(true); // trailing zeros are fine
    expect(parseAmount('100000001', 'EUR').ok).toBe(false);
  });

  it('knows currencies and their minor units', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('XYZ')).toBe(false);
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
  });

  it('formats with the currency', () => {
    expect(formatMoney(123450, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(30, 'USD', 'en-US')).toBe('$0.30');
    expect(formatMoney(1200, 'JPY')).toBe('JP¥1,200');
    expect(minorToDecimal(5, 'EUR')).toBe('0.05');
    expect(minorToDecimal(1200, 'JPY')).toBe('1200');
  });

  it('adds the urgent surcharge in whole minor units, half up', () => {
    expect(surchargeMinor(10000, 50)).toBe(5000);
    expect(surchargeMinor(333, 50)).toBe(167); // 166.5 → 167
    expect(surchargeMinor(1000, 12.5)).toBe(125);
    expect(surchargeMinor(1000, 0)).toBe(0);
  });
});
