import { TWO_FACTOR_NOT_ON } from '../../../common/contracts/two-factor';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import type { Actor } from '../../policies/actor';
import { canResetTwoFactor } from '../../policies/users';
import { mailTwoFactorNotice } from '../accounts/two-factor-notices';
import { disableTotp } from '../accounts/two-factor.queries';
import { type AdminUserRow, findAdminUser, findUserForUpdate } from './users.queries';

export const OWN_TWO_FACTOR_RESET =
  'Turn off your own two-factor sign-in from your profile, with your password and a code.';

/**
 * An admin turns off another account's two-factor sign-in (its owner lost the authenticator and the
 * recovery codes): key, recovery codes and pending sign-ins go, and the owner is mailed in the same
 * transaction, and the audit trail records who did it (docs/product/accounts-and-sessions.md). 404
 * unknown account, 409 when it is not on.
 */
export async function resetTwoFactor(
  db: Db,
  mailer: Mailer,
  actor: Actor,
  who: AuditWho,
  id: number,
): Promise<AdminUserRow> {
  if (!canResetTwoFactor(actor, { id })) throw forbidden(OWN_TWO_FACTOR_RESET);
  return db.transaction(async (tx) => {
    const target = await findUserForUpdate(tx, id);
    if (!target) throw notFound('User not found');
    if (!target.totpSecret) throw conflict(TWO_FACTOR_NOT_ON);
    await disableTotp(tx, id);
    await mailTwoFactorNotice(tx, mailer, target, 'resetByAdmin');
    await recordAudit(tx, {
      ...who,
      action: 'user.two_factor_reset',
      subject: { type: 'user', id },
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false },
    });
    const row = await findAdminUser(tx, id);
    if (!row) throw notFound('User not found');
    return row;
  });
}
