import { createHash } from 'node:crypto';
import { SCHEDULE_MESSAGES, scheduleVerifyPath } from '../../../common/contracts/schedules';
import { optionLabel } from '../../../common/domain/options';
import { DEFAULT_LAB_NAME, LAB_FIXED_ADDRESS, LAB_FIXED_PHONE } from '../../../common/domain/reports';
import { CATEGORIES, displaySampleId, PURPOSES } from '../../../common/domain/samples';
import { valueTypeLabel } from '../../../common/domain/valuation';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, recordAudit } from '../../audit/audit';
import { readLabSettings } from '../../db/lab-settings';
import type { ScheduleItemRecord } from '../../db/schema';
import type { AuthUser } from '../../plugins/auth';
import { conflict, notFound } from '../../plugins/errors';
import { COLLECTION_MESSAGES } from '../../../common/contracts/collections';
import { canReadCollection } from '../../policies/collections';
import { findCollectionHead } from '../collections/collections.queries';
import { readImage } from '../reports/issue-report';
import { personName } from '../reports/signatories';
import { newReportCode } from '../reports/report-code';
import { renderSchedulePdf } from './schedule-pdf';
import { scheduleTotals } from './schedule-totals';
import {
  codeTaken,
  insertSchedule,
  lockCollection,
  type ScheduleItemRow,
  scheduleItemsOf,
} from './schedules.queries';
import { isoDate } from '../../time';

// Issuing a collection's schedule (docs/product/schedules.md): once every item has an issued report
// that is not withdrawn, the PDF is rendered and signed once, stored with its SHA-256, and recorded
// with its audit event in one transaction that re-reads the items under the collection's lock.

export type ScheduleDeps = Pick<AppDeps, 'config' | 'db' | 'storage' | 'keys'>;

export const scheduleStorageKey = (code: string) => `schedules/${code}.pdf`;

const issued = (i: ScheduleItemRow) => i.reportGenerated && !i.reportRevokedAt && i.reportCode && i.revision;

/** Refuses (409) a collection that is empty or has an item without an issued, current report. */
function assertReady(items: ScheduleItemRow[]) {
  if (!items.length) throw conflict(SCHEDULE_MESSAGES.empty);
  const missing = items.filter((i) => !issued(i)).map((i) => displaySampleId(i.id));
  if (missing.length) throw conflict(SCHEDULE_MESSAGES.notReady(missing.slice(0, 10), missing.length - 10));
}

/** What the schedule lists and verification shows (no value). */
const recordOf = (i: ScheduleItemRow): ScheduleItemRecord => ({
  sampleId: i.id,
  displayId: displaySampleId(i.id),
  itemName: i.itemName,
  category: optionLabel(CATEGORIES, i.category) || i.category,
  reportCode: i.reportCode ?? '',
  reportRevision: i.revision ?? 0,
});

/** The items as read, to tell whether they changed before the commit. */
const fingerprint = (items: ScheduleItemRow[]) =>
  JSON.stringify(items.map((i) => [i.id, i.reportCode, i.revision, i.reportRevokedAt, i.valuation]));

async function freeCode(deps: ScheduleDeps): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const code = newReportCode();
    if (!(await codeTaken(deps.db, code))) return code;
  }
  throw new Error('no free schedule code after 10 draws');
}

export async function issueSchedule(
  deps: ScheduleDeps,
  user: AuthUser,
  who: AuditWho,
  collectionId: number,
): Promise<{ scheduleCode: string; issuedAt: string; itemCount: number }> {
  const head = await findCollectionHead(deps.db, collectionId);
  if (!head || !canReadCollection(user, head.collection)) throw notFound(COLLECTION_MESSAGES.notFound);
  const items = await scheduleItemsOf(deps.db, collectionId);
  assertReady(items);

  const lab = await readLabSettings(deps.db);
  const logo = await readImage(deps, lab?.logo);
  const records = items.map(recordOf);
  const listed = items.map((i, n) => ({
    ...(records[n] as ScheduleItemRecord),
    valueType: i.valuation ? valueTypeLabel(i.valuation.valueType) || i.valuation.valueType : null,
    value: i.valuation
      ? { low: i.valuation.low, high: i.valuation.high, currency: i.valuation.currency }
      : null,
  }));
  const code = await freeCode(deps);
  const issuedAt = new Date();
  const labName = lab?.labName?.trim() || DEFAULT_LAB_NAME;
  const labAddress = lab?.address?.trim() || LAB_FIXED_ADDRESS;
  const unsigned = await renderSchedulePdf({
    lab: {
      name: labName,
      address: labAddress,
      phone: lab?.phone?.trim() || LAB_FIXED_PHONE,
      email: lab?.email?.trim() || null,
      certificationNumber: lab?.certificationNumber?.trim() || null,
      logo,
    },
    collection: {
      name: head.collection.name,
      purpose: optionLabel(PURPOSES, head.collection.purpose) || head.collection.purpose,
      ownerName: personName(head.owner) || '—',
    },
    items: listed,
    totals: scheduleTotals(listed),
    scheduleCode: code,
    issuedAt,
    issuedBy: personName(user) || user.email,
    verifyUrl: `${deps.config.publicUrl}${scheduleVerifyPath(code)}`,
    signing: {
      signerName: deps.keys.pdf.signerName,
      location: labAddress,
      contactInfo: deps.config.publicUrl,
    },
  });
  const pdf = await deps.keys.pdf.sign(unsigned, issuedAt);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  const storageKey = scheduleStorageKey(code);
  await deps.storage.put(storageKey, pdf);
  try {
    await deps.db.transaction(async (tx) => {
      await lockCollection(tx, collectionId);
      const now = await scheduleItemsOf(tx, collectionId);
      if (fingerprint(now) !== fingerprint(items)) throw conflict(SCHEDULE_MESSAGES.changed);
      const row = await insertSchedule(tx, {
        code,
        collectionId,
        issuedBy: user.id,
        issuedAt,
        storageKey,
        pdfSha256: sha256,
        items: records,
      });
      await recordAudit(tx, {
        ...who,
        action: 'schedule.issued',
        subject: { type: 'collection', id: collectionId },
        after: {
          scheduleCode: row.code,
          items: records.map((r) => [r.displayId, r.reportCode]),
          pdfSha256: sha256,
        },
      });
    });
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => {});
    throw err;
  }
  return { scheduleCode: code, issuedAt: isoDate(issuedAt), itemCount: records.length };
}
