// Money kept exactly: integer minor units (cents) plus an ISO 4217 currency code, never floats
// (docs/product/quotes.md). Amounts travel as decimal text or JSON numbers and are converted
// through their decimal digits, so 0.1 + 0.2 is 0.30 exactly.

export const DEFAULT_CURRENCY = 'EUR';
/** The largest amount the lab prices (in major units): far above any real quote, far below 2^53 minor units. */
export const MAX_AMOUNT = 100_000_000;

/** True for a three-letter code this runtime knows as a currency. */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  const known = Intl.supportedValuesOf?.('currency');
  return known ? known.includes(code) : true;
}

const digitsByCurrency = new Map<string, number>();

/** How many digits the currency's minor unit has: 2 for EUR, 0 for JPY, 3 for KWD. */
export function minorDigits(currency: string): number {
  // Building an Intl.NumberFormat costs tens of microseconds, so each code's answer is kept (Intl
  // accepts only three-letter codes, so the map stays small; docs/benchmarks.md, verification).
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

export type ParsedAmount = { ok: true; minor: number } | { ok: false; message: string };

export const AMOUNT_INVALID = 'Enter an amount such as 120 or 120.50';
export const AMOUNT_NEGATIVE = 'The amount cannot be negative';
export const AMOUNT_TOO_LARGE = `The amount cannot exceed ${MAX_AMOUNT.toLocaleString('en')}`;
export const amountTooPrecise = (digits: number) =>
  digits === 0 ? 'This currency has no decimals' : `Use at most ${digits} decimals`;

/**
 * Reads an amount in major units ("12.50", 12.5) into minor units without floating-point arithmetic:
 * a JSON number is read through its shortest decimal text, which is exactly what the sender wrote.
 */
export function parseAmount(value: unknown, currency: string): ParsedAmount {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, message: AMOUNT_INVALID };
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return { ok: false, message: AMOUNT_INVALID };
  }
  if (text.startsWith('-')) return { ok: false, message: AMOUNT_NEGATIVE };
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return { ok: false, message: AMOUNT_INVALID };
  const digits = minorDigits(currency);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return { ok: false, message: amountTooPrecise(digits) };
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  if (minor > MAX_AMOUNT * 10 ** digits) return { ok: false, message: AMOUNT_TOO_LARGE };
  return { ok: true, minor };
}

/** Minor units back to major units as a decimal string with the currency's digits: 30 → "0.30". */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  if (digits === 0) return `${sign}${abs}`;
  return `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** Minor units as a JSON number in major units (30 → 0.3): the nearest double of an exact decimal. */
export function minorToNumber(minor: number, currency: string): number {
  return Number(minorToDecimal(minor, currency));
}

/** "€1,234.50", "¥1,200": the amount formatted with its currency. */
export function formatMoney(minor: number, currency: string, locale = 'en-GB'): string {
  // Below 2^53 minor units the double of an exact decimal rounds back to that decimal's digits.
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(
    minorToNumber(minor, currency),
  );
}

/** Exact sum of minor-unit amounts. */
export function sumMinor(amounts: readonly number[]): number {
  return amounts.reduce((a, b) => a + b, 0);
}

/** The urgent surcharge: percent of the subtotal, rounded half up to the minor unit, in integers only. */
export function surchargeMinor(subtotalMinor: number, percent: number): number {
  const hundredths = Math.round(percent * 100); // percent kept to two decimals
  return Math.floor((subtotalMinor * hundredths + 5_000) / 10_000);
}
