import { LAST_ACTIVE_ADMIN_MESSAGE, LAST_ADMIN_MESSAGE } from '../../../common/contracts/accounts';
import type { Role } from '../../../common/domain/roles';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db, DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../plugins/errors';
import { removesLastAdmin } from '../../policies/users';
import type { UserRow } from '../accounts/accounts.queries';
import {
  type AdminUserRow,
  findUserForUpdate,
  lockActiveAdmins,
  setUserActive,
  setUserRole,
} from './users.queries';

// An admin changes another account's role or deactivates it; the lab always keeps one active admin
// (docs/product/roles-and-access.md).

const USER_NOT_FOUND = 'User not found';

/** Changes an account's role; 404 for an unknown account, 409 when it is the last active admin. */
export const changeRole = (db: Db, id: number, role: Role, who: AuditWho): Promise<AdminUserRow> =>
  changeKeepingAnAdmin(db, id, who, {
    action: 'user.role_changed',
    field: 'role',
    after: (target) => ({ role, isActive: target.isActive }),
    refusal: LAST_ADMIN_MESSAGE,
    write: (tx) => setUserRole(tx, id, role),
  });

/** Deactivates or reactivates an account; 404 for an unknown account, 409 for the last active admin. */
export const setAccountActive = (
  db: Db,
  id: number,
  isActive: boolean,
  who: AuditWho,
): Promise<AdminUserRow> =>
  changeKeepingAnAdmin(db, id, who, {
    action: 'user.active_changed',
    field: 'isActive',
    after: (target) => ({ role: target.role, isActive }),
    refusal: LAST_ACTIVE_ADMIN_MESSAGE,
    write: (tx) => setUserActive(tx, id, isActive),
  });

type AccountChange = {
  /** The audit event of the change, and the one field it changes. */
  action: 'user.role_changed' | 'user.active_changed';
  field: 'role' | 'isActive';
  /** The target's role and state once changed. */
  after: (target: UserRow) => { role: Role; isActive: boolean };
  /** The 409's message when the change would leave no active admin. */
  refusal: string;
  write: (tx: DbOrTx) => Promise<AdminUserRow | undefined>;
};

async function changeKeepingAnAdmin(
  db: Db,
  id: number,
  who: AuditWho,
  change: AccountChange,
): Promise<AdminUserRow> {
  const updated = await db.transaction(async (tx) => {
    // Admin rows first, then the target: one lock order for every caller.
    const activeAdmins = await lockActiveAdmins(tx);
    const target = await findUserForUpdate(tx, id);
    if (!target) throw notFound(USER_NOT_FOUND);
    const after = change.after(target);
    if (removesLastAdmin(activeAdmins, target, after)) throw conflict(change.refusal);
    const written = await change.write(tx);
    // Setting what is already there changes nothing and records nothing.
    if (target[change.field] !== after[change.field])
      await recordAudit(tx, {
        ...who,
        action: change.action,
        subject: { type: 'user', id: target.id },
        before: { email: target.email, [change.field]: target[change.field] },
        after: { email: target.email, [change.field]: after[change.field] },
      });
    return written;
  });
  if (!updated) throw notFound(USER_NOT_FOUND);
  return updated;
}
