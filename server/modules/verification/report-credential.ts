import { REPORT_NOT_FOUND_MESSAGE } from '../../../common/contracts/verification';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import { CATEGORIES, optionLabel } from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import { readLabSettings } from '../../db/lab-settings';
import { notFound } from '../../plugins/errors';
import { namesOfRevision } from '../reports/signatories';
import { signCredential } from './credential';
import { type IssuedRow, listRevisionsOf, revisionSignOff } from './verification.queries';

/**
 * A revision of an issued report as a signed verifiable credential (docs/product/signed-reports.md):
 * the current revision, or the one asked for; 404 for a revision not issued under the code.
 */
export async function reportCredential(
  deps: Pick<AppDeps, 'db' | 'keys' | 'config'>,
  code: string,
  row: IssuedRow,
  wanted: number | undefined,
): Promise<{ jwt: string; revision: number }> {
  const revisions = await listRevisionsOf(deps.db, code);
  const rev = wanted ? revisions.find((r) => r.revision === wanted) : revisions[revisions.length - 1];
  if (!rev) throw notFound(REPORT_NOT_FOUND_MESSAGE);
  const [lab, signOff] = await Promise.all([
    readLabSettings(deps.db),
    revisionSignOff(deps.db, code, rev.revision),
  ]);
  const jwt = await signCredential(
    deps.keys.credentials,
    { url: deps.config.publicUrl, name: lab?.labName?.trim() || DEFAULT_LAB_NAME },
    {
      reportCode: code,
      revision: rev.revision,
      item: row.itemName,
      category: optionLabel(CATEGORIES, row.category) || row.category,
      issuedAt: rev.issuedAt,
      pdfSha256: rev.sha256,
      authenticity: rev.content?.authenticity?.verdict ?? null,
      condition: rev.content?.condition?.grade ?? null,
      intendedUse: rev.content?.assignment?.intendedUse ?? null,
      ...namesOfRevision(signOff, { firstName: row.staffFirstName, lastName: row.staffLastName }),
    },
  );
  return { jwt, revision: rev.revision };
}
