import { z } from 'zod';
import { reportContent } from './reports';
import { reviewSignOff } from './review';

// Public verification (docs/product/reports-and-verification.md).

export const REPORT_NOT_FOUND_MESSAGE = 'Report not found';

export const verifiedElement = z.object({
  element: z.string(),
  percentage: z.number().nullable(),
  purity: z.string().nullable(),
  quality: z.string().nullable(),
});
export type VerifiedElement = z.infer<typeof verifiedElement>;

export const verificationResponse = z.object({
  id: z.number(),
  itemName: z.string(),
  category: z.string(),
  status: z.string(),
  reportCode: z.string(),
  submissionDate: z.string(),
  reportGeneratedAt: z.string().nullable(),
  lastUpdated: z.string(),
  reportElements: z.array(verifiedElement),
  assignedStaff: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() }).nullable(),
  /** The current revision and when it was issued. */
  revision: z.number(),
  /** Who analysed it and which second expert approved it, when the lab reviewed it (docs/product/valuation-report.md). */
  review: reviewSignOff.nullable(),
  issuedAt: z.string(),
  revoked: z.boolean(),
  revokedReason: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** What the report states (docs/product/valuation-report.md); null when it states nothing of the kind. */
  identification: reportContent.shape.identification,
  authenticity: z.object({ verdict: z.string() }).nullable(),
  condition: z.object({ grade: z.string() }).nullable(),
  /** The appraisal's intended use and how the item was inspected (docs/product/appraisal-report.md); never a price or tax detail. */
  assignment: z.object({ intendedUse: z.string(), inspection: z.string() }).nullable(),
  /** The report's photos, display copies at token-free links, in the report's order. */
  photos: z.array(z.object({ url: z.string() })),
  /** The value: only through a valid share link of the owner's, never otherwise (amounts in major units). */
  valuation: z
    .object({
      low: z.number().nullable(),
      high: z.number(),
      currency: z.string(),
      valueType: z.string(),
      effectiveDate: z.string(),
    })
    .nullable(),
});
export type VerificationResponse = z.infer<typeof verificationResponse>;

/** POST /api/reports/verify/{code}/document: is this file a PDF we issued under this code? */
export const documentCheckResponse = z.object({
  reportCode: z.string(),
  /** current: byte-identical to the current revision; superseded: an older revision; unknown: not issued by us. */
  result: z.enum(['current', 'superseded', 'unknown']),
  /** The revision the file matches (null when unknown). */
  revision: z.number().nullable(),
  issuedAt: z.string().nullable(),
  currentRevision: z.number(),
  currentIssuedAt: z.string(),
  supersededByRevision: z.number().nullable(),
  supersededAt: z.string().nullable(),
  revoked: z.boolean(),
  revokedReason: z.string().nullable(),
  revokedAt: z.string().nullable(),
  message: z.string(),
});
export type DocumentCheckResponse = z.infer<typeof documentCheckResponse>;

export const verifyCodeParams = z.object({ code: z.string().max(64) });
/** `?share=TOKEN`: an owner's share link, which adds the value to the answer. */
export const verifyQuery = z.object({ share: z.string().max(128).optional() });
