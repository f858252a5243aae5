import { SignJWT } from 'jose';
import { scheduleVerifyPath } from '../../../common/contracts/schedules';
import type { ScheduleItemRecord } from '../../db/schema';
import { CREDENTIAL_ALG, type CredentialKeys } from '../signing/credential-keys';
import { CREDENTIAL_TYP } from '../verification/credential';
import { isoDate } from '../../time';

// A schedule as a W3C Verifiable Credential (VC Data Model 2.0) secured as a JWT, signed with the
// same keys as report credentials (/.well-known/jwks.json). Its subject names the schedule, its items
// by sample id and report code, the issue date and the PDF's SHA-256: never a value, a name of the
// collection or its owner (docs/product/schedules.md).

export const SCHEDULE_CREDENTIAL_TYPE = 'ValuationLabScheduleCredential';

export function scheduleCredentialPayload(
  issuer: { url: string; name: string },
  s: { code: string; issuedAt: Date; pdfSha256: string; items: ScheduleItemRecord[] },
) {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: `urn:valuation-lab:schedule:${s.code}`,
    type: ['VerifiableCredential', SCHEDULE_CREDENTIAL_TYPE],
    name: `Schedule of valuations ${s.code}`,
    issuer: { id: issuer.url, name: issuer.name },
    validFrom: isoDate(s.issuedAt),
    credentialSubject: {
      id: `${issuer.url}${scheduleVerifyPath(s.code)}`,
      type: 'CollectionSchedule',
      scheduleCode: s.code,
      itemCount: s.items.length,
      items: s.items.map((i) => ({
        sampleId: i.displayId,
        reportCode: i.reportCode,
        reportRevision: i.reportRevision,
      })),
      issueDate: isoDate(s.issuedAt),
      pdfSha256: s.pdfSha256,
    },
  };
}

export function signScheduleCredential(
  keys: CredentialKeys,
  issuer: { url: string; name: string },
  s: { code: string; issuedAt: Date; pdfSha256: string; items: ScheduleItemRecord[] },
): Promise<string> {
  return new SignJWT(scheduleCredentialPayload(issuer, s))
    .setProtectedHeader({ alg: CREDENTIAL_ALG, typ: CREDENTIAL_TYP, cty: 'vc', kid: keys.active.kid })
    .setIssuedAt(Math.floor(s.issuedAt.getTime() / 1000))
    .sign(keys.active.privateKey);
}
