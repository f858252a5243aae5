import { z } from 'zod';
import { DEFAULT_CURRENCY, isCurrencyCode, parseAmount } from '../domain/money';
import { SERVICES, type ServiceField } from '../domain/samples';
import { MAX_REVALUE_AFTER_MONTHS, MAX_TAX_FILING_WINDOW_MONTHS } from '../domain/appraisal';

import { MAX_FLAG_HELD_DAYS } from '../domain/custody';

// Lab settings (docs/product/screens.md, api.md, messages.md).

export const LAB_NAME_REQUIRED = 'Lab name is required';
export const INVALID_URL = 'Invalid URL';
export const INVALID_EMAIL = 'Invalid email address';

/** Empty or blank becomes null (docs/product/api.md: empty fields are sent as null). */
const optional = z
  .string()
  .max(255)
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

const HOSTNAME = /^(localhost|([a-z\d]([a-z\d-]*[a-z\d])?\.)+[a-z\d-]{2,})$/i;

/** An http(s) address with a real host name (browsers would otherwise accept 'https://not a url'). */
const isUrl = (v: string) => {
  if (/\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && HOSTNAME.test(u.hostname);
  } catch {
    return false;
  }
};

/** 'example.com' means 'https://example.com': a website typed without its scheme is completed. */
export function normalizeWebsite(value: string): string {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `https://${value.replace(/^\/+/, '')}`;
}

export const CURRENCY_INVALID = 'Enter a three-letter currency code such as EUR, USD or GBP';
export const SURCHARGE_INVALID = 'The urgent surcharge must be a whole percent from 0 to 500';
export const MAX_SURCHARGE_PERCENT = 500;
export const REVALUE_MONTHS_INVALID = `Re-valuation after must be a whole number of months from 1 to ${MAX_REVALUE_AFTER_MONTHS}`;
export const TAX_WINDOW_INVALID = `The tax filing window must be a whole number of months from 0 to ${MAX_TAX_FILING_WINDOW_MONTHS}`;

/** A whole number from a form field or JSON, within bounds; left out, unchanged. */
const wholeMonths = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ message }).int(message).min(min, message).max(max, message).optional(),
  );
/** A template's rich text; blank means the product's default text. Left out, unchanged. */
const template = z
  .string()
  .max(20_000)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v?.trim() ? v : null));

export const FLAG_DAYS_INVALID = `Enter a whole number of days from 1 to ${MAX_FLAG_HELD_DAYS}`;

/** A three-letter ISO 4217 code, upper-cased (docs/product/quotes.md). */
export const currencyCode = z
  .string({ message: CURRENCY_INVALID })
  .trim()
  .toUpperCase()
  .refine(isCurrencyCode, CURRENCY_INVALID);

/** An amount in major units as a JSON number or decimal text; read exactly by `parseAmount`. */
export const amountInput = z.union([z.number(), z.string()], { message: 'Enter an amount' });

/** Adds an issue at `path` unless `value` is a valid amount in `currency`. */
export function checkAmount(
  ctx: z.RefinementCtx,
  value: unknown,
  currency: string,
  path: (string | number)[],
) {
  const parsed = parseAmount(value, isCurrencyCode(currency) ? currency : DEFAULT_CURRENCY);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message, path });
}

const priceList = z.object(
  Object.fromEntries(SERVICES.map((s) => [s.field, amountInput])) as Record<ServiceField, typeof amountInput>,
);

export const MAX_PAYMENT_INSTRUCTIONS = 2000;
export const PAYMENT_INSTRUCTIONS_TOO_LONG = `Payment instructions must be at most ${MAX_PAYMENT_INSTRUCTIONS} characters`;
export const PAYMENT_LINK_INVALID = 'The payment link must be a web address starting with https://';

/** Left out: unchanged; empty: cleared; otherwise trimmed (several lines allowed). */
const paymentInstructions = z
  .string()
  .max(MAX_PAYMENT_INSTRUCTIONS, PAYMENT_INSTRUCTIONS_TOO_LONG)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v?.trim() || null));
const paymentLink = z
  .string()
  .max(500, PAYMENT_LINK_INVALID)
  .nullish()
  .transform((v) => (v === undefined ? undefined : v?.trim() ? normalizeWebsite(v.trim()) : null))
  .refine((v) => v === undefined || v === null || isUrl(v), PAYMENT_LINK_INVALID);

/** The JSON of the multipart 'settings' part; the web form validates with the same schema. */
export const labSettingsRequest = z
  .object({
    labName: z.string({ message: LAB_NAME_REQUIRED }).trim().min(1, LAB_NAME_REQUIRED).max(255),
    address: optional,
    phone: optional,
    email: optional.refine((v) => v === null || z.email().safeParse(v).success, INVALID_EMAIL),
    website: optional
      .transform((v) => (v === null ? null : normalizeWebsite(v)))
      .refine((v) => v === null || isUrl(v), INVALID_URL),
    certificationNumber: optional,
    /** The price list (docs/product/quotes.md); left out, the stored one stays. */
    prices: priceList.optional(),
    urgentSurchargePercent: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z
        .number({ message: SURCHARGE_INVALID })
        .int(SURCHARGE_INVALID)
        .min(0, SURCHARGE_INVALID)
        .max(MAX_SURCHARGE_PERCENT, SURCHARGE_INVALID)
        .optional(),
    ),
    currency: currencyCode.optional(),
    /** Staff and admins must set up two-factor sign-in (docs/product/accounts-and-sessions.md); left out, unchanged. */
    require2faForStaff: z.boolean({ message: 'require2faForStaff must be true or false' }).optional(),
    /** Issued reports wait for a second expert's approval (docs/product/valuation-report.md); left out, unchanged. */
    requireReview: z.boolean({ message: 'requireReview must be true or false' }).optional(),
    /** How to pay an invoice (bank details, terms), on every invoice and its mail; left out, unchanged. */
    paymentInstructions,
    /** An online payment page shown beside the instructions; left out, unchanged. */
    paymentLink,
    /** The appraisal report's texts and terms (docs/product/appraisal-report.md); left out, unchanged. */
    certificationTemplate: template,
    limitingConditionsTemplate: template,
    revalueAfterMonths: wholeMonths(1, MAX_REVALUE_AFTER_MONTHS, REVALUE_MONTHS_INVALID),
    taxFilingWindowMonths: wholeMonths(0, MAX_TAX_FILING_WINDOW_MONTHS, TAX_WINDOW_INVALID),

    /** The inventory flags items still held this many days after completion (docs/product/custody.md); left out, unchanged. */
    flagHeldDaysAfterCompletion: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z
        .number({ message: FLAG_DAYS_INVALID })
        .int(FLAG_DAYS_INVALID)
        .min(1, FLAG_DAYS_INVALID)
        .max(MAX_FLAG_HELD_DAYS, FLAG_DAYS_INVALID)
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (!v.prices) return;
    // Prices are read in their currency, so the two travel together.
    if (!v.currency) ctx.addIssue({ code: 'custom', message: CURRENCY_INVALID, path: ['currency'] });
    for (const s of SERVICES)
      checkAmount(ctx, v.prices[s.field], v.currency ?? DEFAULT_CURRENCY, ['prices', s.field]);
  });
export type LabSettingsRequest = z.input<typeof labSettingsRequest>;
export type LabSettingsParsed = z.output<typeof labSettingsRequest>;

/** GET/POST answer. `logo` is an /Uploads/logo/… path, fetched with the token. */
export const labSettingsResponse = z.object({
  labName: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  certificationNumber: z.string().nullable(),
  logo: z.string().nullable(),
  /** Prices per service in major units of `currency` (0 until set). */
  prices: z.object(
    Object.fromEntries(SERVICES.map((s) => [s.field, z.number()])) as Record<ServiceField, z.ZodNumber>,
  ),
  urgentSurchargePercent: z.number().int(),
  currency: z.string(),
  require2faForStaff: z.boolean(),
  requireReview: z.boolean(),
  paymentInstructions: z.string().nullable(),
  paymentLink: z.string().nullable(),
  /** The texts in force: the lab's own, or the product's defaults while none is saved. */
  certificationTemplate: z.string(),
  limitingConditionsTemplate: z.string(),
  revalueAfterMonths: z.number().int(),
  taxFilingWindowMonths: z.number().int(),

  flagHeldDaysAfterCompletion: z.number().int(),
});
export type LabSettings = z.infer<typeof labSettingsResponse>;
