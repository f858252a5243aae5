import { sumMinor } from '../../../common/domain/money';

// A schedule's totals (docs/product/schedules.md): per currency, and per category within each
// currency. Amounts stay in minor units and integers; currencies are never added together. An item
// valued as a range adds its low figure to the low total and its high figure to the high total; an
// item valued at one figure adds it to both. An item whose report states no value is counted apart.

export type ScheduleValue = { low: number | null; high: number; currency: string };
export type ScheduleTotal = { currency: string; low: number; high: number; items: number };
export type ScheduleCategoryTotal = ScheduleTotal & { category: string };

export function scheduleTotals(items: readonly { category: string; value: ScheduleValue | null }[]) {
  const byCurrency = new Map<string, { lows: number[]; highs: number[] }>();
  const byCategory = new Map<
    string,
    { category: string; currency: string; lows: number[]; highs: number[] }
  >();
  let unvalued = 0;
  for (const item of items) {
    const v = item.value;
    if (!v) {
      unvalued++;
      continue;
    }
    const low = v.low ?? v.high;
    const cur = byCurrency.get(v.currency) ?? { lows: [], highs: [] };
    cur.lows.push(low);
    cur.highs.push(v.high);
    byCurrency.set(v.currency, cur);
    const key = `${item.category}\u0000${v.currency}`;
    const cat = byCategory.get(key) ?? { category: item.category, currency: v.currency, lows: [], highs: [] };
    cat.lows.push(low);
    cat.highs.push(v.high);
    byCategory.set(key, cat);
  }
  const perCurrency: ScheduleTotal[] = [...byCurrency.entries()]
    .map(([currency, t]) => ({
      currency,
      low: sumMinor(t.lows),
      high: sumMinor(t.highs),
      items: t.highs.length,
    }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  const perCategory: ScheduleCategoryTotal[] = [...byCategory.values()]
    .map((t) => ({
      category: t.category,
      currency: t.currency,
      low: sumMinor(t.lows),
      high: sumMinor(t.highs),
      items: t.highs.length,
    }))
    .sort((a, b) => a.category.localeCompare(b.category) || a.currency.localeCompare(b.currency));
  return { perCurrency, perCategory, unvalued };
}
