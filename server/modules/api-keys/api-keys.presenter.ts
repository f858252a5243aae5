import type { ApiKeyListItem } from '../../../common/contracts/api-keys';
import type { ApiKeyScope } from '../../../common/domain/api-keys';
import { isoDate, isoDateOrNull } from '../../time';
import type { ApiKeyRow } from './api-keys.queries';

/** A key as its owner sees it: never the key nor its hash. */
export const presentApiKey = (row: ApiKeyRow): ApiKeyListItem => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as ApiKeyScope[],
  prefix: row.prefix,
  createdAt: isoDate(row.createdAt),
  lastUsedAt: isoDateOrNull(row.lastUsedAt),
});
