import { DEFAULT_CURRENCY, parseAmount } from '../../../common/domain/money';
import { SERVICES, type ServiceField } from '../../../common/domain/samples';
import type { LabSettingsRow } from '../../db/lab-settings';

// The lab's price list (docs/product/quotes.md): minor units per service, an urgent surcharge in
// whole percent, one currency.

export type PriceList = {
  pricesMinor: Record<ServiceField, number>;
  urgentSurchargePercent: number;
  currency: string;
};

const noPrices = (): Record<ServiceField, number> =>
  Object.fromEntries(SERVICES.map((s) => [s.field, 0])) as Record<ServiceField, number>;

/** The stored price list, with 0 for prices never set and the defaults of a fresh lab. */
export function priceListOf(row: LabSettingsRow | undefined): PriceList {
  return {
    pricesMinor: { ...noPrices(), ...(row?.pricesMinor ?? {}) },
    urgentSurchargePercent: row?.urgentSurchargePercent ?? 50,
    currency: row?.currency ?? DEFAULT_CURRENCY,
  };
}

/** Validated request amounts (major units) to minor units; the contract has already checked them. */
export function pricesToMinor(
  prices: Record<ServiceField, number | string>,
  currency: string,
): Record<ServiceField, number> {
  return Object.fromEntries(
    SERVICES.map((s) => {
      const parsed = parseAmount(prices[s.field], currency);
      if (!parsed.ok) throw new Error(`price ${s.field} was not validated`);
      return [s.field, parsed.minor];
    }),
  ) as Record<ServiceField, number>;
}

/** Columns to save from a settings request: only what it carries; the rest stays as stored. */
export function priceSettingsValues(
  request: {
    prices?: Record<ServiceField, number | string> | undefined;
    urgentSurchargePercent?: number | undefined;
    currency?: string | undefined;
  },
  current: LabSettingsRow | undefined,
): Partial<Pick<LabSettingsRow, 'pricesMinor' | 'urgentSurchargePercent' | 'currency'>> {
  const currency = request.currency ?? priceListOf(current).currency;
  return {
    ...(request.prices ? { pricesMinor: pricesToMinor(request.prices, currency) } : {}),
    ...(request.urgentSurchargePercent !== undefined
      ? { urgentSurchargePercent: request.urgentSurchargePercent }
      : {}),
    ...(request.currency ? { currency: request.currency } : {}),
  };
}
