import { and, desc, eq } from 'drizzle-orm';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import { displaySampleId } from '../../../common/domain/samples';
import type { DbOrTx } from '../../db/client';
import { readLabSettings } from '../../db/lab-settings';
import { custodyEvents, users } from '../../db/schema';
import { mailDay } from '../../mail/notifications';
import { notFound } from '../../plugins/errors';
import { findSample } from '../samples/samples.queries';
import { SAMPLE_NOT_FOUND } from './custody-events';
import { renderLabelPdf } from './label-pdf';

// The item's label (docs/product/custody.md): what it prints and the PDF.

/**
 * What the label prints besides the sample's own columns: the owner's surname (else the last word of
 * the submitter's name) and when the item arrived.
 */
async function ownerOfSample(
  db: DbOrTx,
  sample: { id: number; userId: number; submitterName: string },
): Promise<{ surname: string; receivedAt: Date | null }> {
  const [[owner], [arrival]] = await Promise.all([
    db.select({ lastName: users.lastName }).from(users).where(eq(users.id, sample.userId)).limit(1),
    db
      .select({ at: custodyEvents.at })
      .from(custodyEvents)
      .where(and(eq(custodyEvents.sampleId, sample.id), eq(custodyEvents.event, 'received')))
      .orderBy(desc(custodyEvents.id))
      .limit(1),
  ]);
  const surname = owner?.lastName?.trim() || sample.submitterName.trim().split(/\s+/).at(-1) || '';
  return { surname, receivedAt: arrival?.at ?? null };
}

/** The label PDF of a sample and its file name; an unknown sample is 404. */
export async function sampleLabel(db: DbOrTx, sampleId: number): Promise<{ pdf: Buffer; name: string }> {
  const sample = await findSample(db, sampleId);
  if (!sample) throw notFound(SAMPLE_NOT_FOUND);
  const [owner, lab] = await Promise.all([ownerOfSample(db, sample), readLabSettings(db)]);
  const displayId = displaySampleId(sample.id);
  const pdf = await renderLabelPdf({
    displayId,
    itemName: sample.itemName,
    ownerSurname: owner.surname,
    receivedOn: owner.receivedAt ? mailDay(owner.receivedAt) : null,
    labName: lab?.labName?.trim() || DEFAULT_LAB_NAME,
  });
  return { pdf, name: `Label-${displayId}.pdf` };
}
