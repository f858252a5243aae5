import { z } from 'zod';

// Owner-controlled disclosure of the value and the owner's view of who verified their report
// (docs/product/valuation-report.md).

export const MAX_SHARE_DAYS = 365;
export const SHARE_DAYS_MESSAGE = `Choose an expiry between 1 and ${MAX_SHARE_DAYS} days`;
export const NO_REPORT_TO_SHARE = 'This sample has no issued report to share yet';
export const SHARE_LINK_NOT_FOUND = 'Share link not found';
/** Rows per page of the owner's verification log unless the call asks for another size. */
export const VERIFICATION_LOG_PAGE_SIZE = 20;
export const MAX_VERIFICATION_LOG_PAGE_SIZE = 100;

/** POST /api/samples/{id}/share-links. */
export const createShareLinkBody = z.object({
  expiresInDays: z
    .number(SHARE_DAYS_MESSAGE)
    .int(SHARE_DAYS_MESSAGE)
    .min(1, SHARE_DAYS_MESSAGE)
    .max(MAX_SHARE_DAYS, SHARE_DAYS_MESSAGE),
  /** Whom the link is for, in the owner's words ("Insurer"). */
  label: z
    .string()
    .trim()
    .max(255)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateShareLinkBody = z.input<typeof createShareLinkBody>;

export const shareLink = z.object({
  id: z.number(),
  /**
   * The token and the link PUBLIC_URL/verify-report?code=CODE&share=TOKEN: only in the answer that
   * creates the link (only its hash is kept), null in the list.
   */
  token: z.string().nullable(),
  url: z.string().nullable(),
  /** The token's last characters, so the owner can tell links apart. */
  hint: z.string(),
  label: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  /** Not revoked and not expired: a verification through it shows the value. */
  active: z.boolean(),
});
export type ShareLink = z.infer<typeof shareLink>;

export const shareLinkParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  linkId: z.coerce.number().int().min(1).max(2_147_483_647),
});

/** One public verification of the owner's report, newest first. */
export const verificationLogEntry = z.object({
  id: z.number(),
  at: z.string(),
  /** authentic | revoked | document_current | … (docs/product/reports-and-verification.md) */
  result: z.string(),
  /** The visitor's network (/24 or /48), never the address. */
  network: z.string().nullable(),
  /** The share link it came through, or null for a plain code. */
  shareLinkId: z.number().nullable(),
  shareLinkLabel: z.string().nullable(),
});
export type VerificationLogEntry = z.infer<typeof verificationLogEntry>;

export const verificationLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_VERIFICATION_LOG_PAGE_SIZE)
    .default(VERIFICATION_LOG_PAGE_SIZE),
});
