import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { type ReportCredentialSubject, reportCredentialSubject } from '../../../common/contracts/credentials';
import { CREDENTIAL_ALG, type CredentialKeys } from '../signing/credential-keys';
import { isoDate } from '../../time';

// One issued revision as a W3C Verifiable Credential (VC Data Model 2.0), secured as a JWT the way
// VC-JOSE-COSE describes it: the credential is the JWT's payload, the header says `typ: vc+jwt` and
// names the signing key by `kid`, published in /.well-known/jwks.json. See
// docs/product/signed-reports.md for what the subject holds and why nothing else.

export const CREDENTIAL_TYPE = 'ValuationLabReportCredential';
export const CREDENTIAL_TYP = 'vc+jwt';

export type CredentialFacts = {
  reportCode: string;
  revision: number;
  item: string;
  category: string;
  authenticity?: string | null;
  condition?: string | null;
  /** The appraisal's intended use (docs/product/appraisal-report.md): never the value or a tax detail. */
  intendedUse?: string | null;
  /** "Analyzed By" and, for a reviewed revision, "Reviewed By", as the PDF names them. */
  analyzedBy?: string | null;
  reviewedBy?: string | null;
  issuedAt: Date;
  pdfSha256: string;
};

export type CredentialIssuer = { url: string; name: string };

export function credentialPayload(issuer: CredentialIssuer, facts: CredentialFacts) {
  const subject: ReportCredentialSubject = {
    id: `${issuer.url}/verify-report?code=${facts.reportCode}&revision=${facts.revision}`,
    type: 'AnalysisReport',
    reportCode: facts.reportCode,
    revision: facts.revision,
    item: facts.item,
    category: facts.category,
    ...(facts.authenticity ? { authenticity: facts.authenticity } : {}),
    ...(facts.condition ? { condition: facts.condition } : {}),
    ...(facts.intendedUse ? { intendedUse: facts.intendedUse } : {}),
    ...(facts.analyzedBy ? { analyzedBy: facts.analyzedBy } : {}),
    ...(facts.reviewedBy ? { reviewedBy: facts.reviewedBy } : {}),
    issueDate: isoDate(facts.issuedAt),
    pdfSha256: facts.pdfSha256,
  };
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: `urn:valuation-lab:report:${facts.reportCode}:${facts.revision}`,
    type: ['VerifiableCredential', CREDENTIAL_TYPE],
    name: `Analysis report ${facts.reportCode}, revision ${facts.revision}`,
    issuer: { id: issuer.url, name: issuer.name },
    validFrom: isoDate(facts.issuedAt),
    credentialSubject: subject,
  };
}

export async function signCredential(
  keys: CredentialKeys,
  issuer: CredentialIssuer,
  facts: CredentialFacts,
): Promise<string> {
  return new SignJWT(credentialPayload(issuer, facts))
    .setProtectedHeader({ alg: CREDENTIAL_ALG, typ: CREDENTIAL_TYP, cty: 'vc', kid: keys.active.kid })
    .setIssuedAt(Math.floor(facts.issuedAt.getTime() / 1000))
    .sign(keys.active.privateKey);
}

const credentialShape = z.object({
  type: z.array(z.string()).refine((t) => t.includes('VerifiableCredential') && t.includes(CREDENTIAL_TYPE)),
  credentialSubject: reportCredentialSubject,
});

export type CredentialCheck =
  | { genuine: true; kid: string; subject: ReportCredentialSubject }
  | { genuine: false; kid: string | null; reason: string };

/** Checks the signature against every published key (active and retired) and the credential's shape. */
export async function checkCredentialSignature(keys: CredentialKeys, jwt: string): Promise<CredentialCheck> {
  let kid: string | null = null;
  try {
    kid = decodeProtectedHeader(jwt).kid ?? null;
  } catch {
    return { genuine: false, kid: null, reason: 'This is not a credential: it is not a signed JWT.' };
  }
  try {
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(keys.jwks), {
      typ: CREDENTIAL_TYP,
      algorithms: [CREDENTIAL_ALG],
    });
    const shape = credentialShape.safeParse(payload);
    if (!shape.success)
      return {
        genuine: false,
        kid,
        reason: 'This credential was not issued by the laboratory for a report.',
      };
    return { genuine: true, kid: protectedHeader.kid ?? '', subject: shape.data.credentialSubject };
  } catch {
    return {
      genuine: false,
      kid,
      reason:
        'This credential was not signed by the laboratory, or it was changed after signing: do not rely on it.',
    };
  }
}
