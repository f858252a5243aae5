import type { CollectionItemValue } from '../../../common/contracts/collections';
import { PURPOSES } from '../../../common/domain/samples';
import { optionLabel } from '../../../common/domain/options';
import { valueTypeLabel } from '../../../common/domain/valuation';

// How the collection screens write a purpose and an issued value.

export const purposeLabel = (v: string) => optionLabel(PURPOSES, v);

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

/** "£12,000.00 – £18,000.00" or "£18,000.00". */
export function valueText(v: CollectionItemValue): string {
  return v.low === null
    ? money(v.high, v.currency)
    : `${money(v.low, v.currency)} – ${money(v.high, v.currency)}`;
}

export const valueTypeText = (v: CollectionItemValue) => valueTypeLabel(v.valueType);

/** "3 of 5 reports issued". */
export const progressText = (p: { reported: number; total: number }) =>
  p.total === 0 ? 'No items yet' : `${p.reported} of ${p.total} reports issued`;
