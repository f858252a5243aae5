import { describe, expect, it } from 'vitest';
import { scheduleTotals } from './schedule-totals';

describe('scheduleTotals', () => {
  it('adds per currency and per category within a currency, never across currencies', () => {
    const totals = scheduleTotals([
      { category: 'Silver', value: { low: 10_000, high: 15_000, currency: 'GBP' } },
      { category: 'Silver', value: { low: null, high: 2_050, currency: 'GBP' } },
      { category: 'Clocks', value: { low: 100_000, high: 120_000, currency: 'GBP' } },
      { category: 'Silver', value: { low: null, high: 50_000, currency: 'USD' } },
      { category: 'Paintings', value: null },
    ]);
    expect(totals.perCurrency).toEqual([
      { currency: 'GBP', low: 112_050, high: 137_050, items: 3 },
      { currency: 'USD', low: 50_000, high: 50_000, items: 1 },
    ]);
    expect(totals.perCategory).toEqual([
      { category: 'Clocks', currency: 'GBP', low: 100_000, high: 120_000, items: 1 },
      { category: 'Silver', currency: 'GBP', low: 12_050, high: 17_050, items: 2 },
      { category: 'Silver', currency: 'USD', low: 50_000, high: 50_000, items: 1 },
    ]);
    expect(totals.unvalued).toBe(1);
  });

  it('answers no totals for an empty list', () => {
    expect(scheduleTotals([])).toEqual({ perCurrency: [], perCategory: [], unvalued: 0 });
  });
});
