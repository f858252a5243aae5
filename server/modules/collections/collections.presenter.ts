import type {
  CollectionDetail,
  CollectionItem,
  CollectionListItem,
} from '../../../common/contracts/collections';
import { displaySampleId } from '../../../common/domain/samples';
import { isoDate as iso, isoDateOrNull as isoOrNull } from '../../time';
import { valueInMajorUnits } from '../reports/report-content';
import { presentCustody, presentListThumbnail } from '../samples/samples.presenter';
import type { CollectionItemRow, CollectionRow } from './collections.queries';

// What of a collection leaves the server (docs/product/collections.md). Only people who may read the
// collection get here (its owner, staff, admins: server/policies/collections.ts), and they may read
// each item's issued report, value included; a withdrawn report shows no value.

type Progress = { total: number; reported: number };

export function presentCollection(row: CollectionRow, progress: Progress): CollectionListItem {
  return {
    id: row.id,
    name: row.name,
    purpose: row.purpose,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    progress: { total: Number(progress.total), reported: Number(progress.reported) },
  };
}

export function presentCollectionItem(row: CollectionItemRow, seesLocation: boolean): CollectionItem {
  const revoked = row.reportRevokedAt !== null;
  const issued = row.reportGenerated && !revoked;
  const v = row.valuation;
  return {
    id: row.id,
    displayId: displaySampleId(row.id),
    itemName: row.itemName,
    category: row.category,
    status: row.status,
    submissionDate: iso(row.submissionDate),
    custody: presentCustody(row, seesLocation),
    reportCode: row.reportGenerated ? row.reportCode : null,
    reportIssuedAt: row.reportGenerated ? isoOrNull(row.reportGeneratedAt) : null,
    reportRevoked: revoked,
    value:
      issued && v
        ? {
            ...valueInMajorUnits(v),
            currency: v.currency,
            valueType: v.valueType,
            effectiveDate: v.effectiveDate,
          }
        : null,
    ...presentListThumbnail(row.firstPhoto),
  };
}

export function presentCollectionDetail(
  head: {
    collection: CollectionRow;
    owner: { id: number; firstName: string | null; lastName: string | null };
  } & Progress,
  items: CollectionItemRow[],
  seesLocation: boolean,
): CollectionDetail {
  return {
    ...presentCollection(head.collection, head),
    owner: { id: head.owner.id, firstName: head.owner.firstName, lastName: head.owner.lastName },
    items: items.map((i) => presentCollectionItem(i, seesLocation)),
  };
}
