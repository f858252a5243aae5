// Report vocabulary: codes and element rules (docs/product/reports-and-verification.md, limits.md).

export const REPORT_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REPORT_CODE_LENGTH = 8;
export const REPORT_CODE_PATTERN = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/;

export const ELEMENT_QUALITIES = ['Excellent', 'Good', 'Fair', 'Poor'] as const;
export type ElementQuality = (typeof ELEMENT_QUALITIES)[number];

export const MAX_TOTAL_PERCENTAGE = 100;
export const PERCENTAGE_STEP = 0.01;

/** Trimmed and upper-cased, as the verify page and the verify call both do (docs/product/reports-and-verification.md). */
export function normalizeReportCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Rich-text tags the notes editor's toolbar can produce (docs/product/limits.md). */
export const NOTES_ALLOWED_TAGS = [
  'h1',
  'h2',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ol',
  'ul',
  'li',
  'p',
  'br',
] as const;

export const DEFAULT_LAB_NAME = 'Heritage Valuation Laboratory';
export const LAB_FIXED_ADDRESS = '125 Antiquarian Row, Suite 400, Boston, MA 02108';
export const LAB_FIXED_PHONE = '+1 (617) 555-0142';
/** The lab's general e-mail address: the footer, the contact page and the deactivated-account message. */
export const LAB_CONTACT_EMAIL = 'info@heritagevaluationlab.com';
export const LAB_HELP_EMAIL = 'verify@heritagevaluationlab.com';

/** Printed on every page of a report's staff-only preview (docs/product/valuation-report.md). */
export const REPORT_PREVIEW_BAND = 'DRAFT — not issued';
