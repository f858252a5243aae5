import { z } from 'zod';
import { CREDENTIAL_REQUIRED_MESSAGE, CREDENTIAL_TOO_LONG_MESSAGE } from './credentials-constants';

// A report revision as a W3C Verifiable Credential (docs/product/signed-reports.md): the JWT served by
// GET /api/reports/verify/{code}/credential, and the public check POST /api/reports/verify-credential.

export const CREDENTIAL_MEDIA_TYPE = 'application/vc+jwt';
export { CREDENTIAL_REQUIRED_MESSAGE, CREDENTIAL_TOO_LONG_MESSAGE };

/**
 * What the credential says about the report: never the value, never who owns the item. Credentials
 * made before the sign-off names existed have no `analyzedBy`/`reviewedBy` and still check.
 */
export const reportCredentialSubject = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  reportCode: z.string(),
  revision: z.number().int().positive(),
  item: z.string(),
  category: z.string(),
  /** The authenticity verdict and condition grade, once the report states them. */
  authenticity: z.string().optional(),
  condition: z.string().optional(),
  /** The appraisal's intended use, when the report states a value (never the value itself). */
  intendedUse: z.string().optional(),
  /** The lab's analyst ("Analyzed By") and, for a revision a second expert approved, the reviewer. */
  analyzedBy: z.string().optional(),
  reviewedBy: z.string().optional(),
  issueDate: z.string(),
  pdfSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ReportCredentialSubject = z.infer<typeof reportCredentialSubject>;

/** GET …/credential?revision=N (default: the current revision). */
export const credentialQuery = z.object({
  revision: z.coerce.number().int().positive().max(1_000_000).optional(),
});

export const verifyCredentialBody = z.object({
  credential: z
    .string({ error: CREDENTIAL_REQUIRED_MESSAGE })
    .trim()
    .min(1, CREDENTIAL_REQUIRED_MESSAGE)
    .max(20_000, CREDENTIAL_TOO_LONG_MESSAGE),
});
export type VerifyCredentialBody = z.infer<typeof verifyCredentialBody>;

export const CREDENTIAL_STATUSES = ['current', 'superseded', 'revoked', 'not-genuine', 'unknown'] as const;

export const credentialCheckResponse = z.object({
  /** True when the laboratory's key (active or retired) signed exactly this credential. */
  genuine: z.boolean(),
  /**
   * current: the report's current revision; superseded: an older revision; revoked: the report was
   * withdrawn; not-genuine: not signed by the laboratory (forged, altered or not a credential);
   * unknown: signed by the laboratory but the report is not on record here.
   */
  status: z.enum(CREDENTIAL_STATUSES),
  reportCode: z.string().nullable(),
  revision: z.number().nullable(),
  issuedAt: z.string().nullable(),
  currentRevision: z.number().nullable(),
  currentIssuedAt: z.string().nullable(),
  supersededByRevision: z.number().nullable(),
  supersededAt: z.string().nullable(),
  revokedReason: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** The signing key's id (kid), as listed in /.well-known/jwks.json. */
  keyId: z.string().nullable(),
  subject: reportCredentialSubject.nullable(),
  message: z.string(),
});
export type CredentialCheckResponse = z.infer<typeof credentialCheckResponse>;
