import type { DbOrTx } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import type { TwoFactorEvent } from '../../mail/templates';

/**
 * Tells the owner about a change to their two-factor sign-in (docs/product/mail.md), queued in the
 * caller's transaction: always sent, whatever the mail preferences.
 */
export async function mailTwoFactorNotice(
  tx: DbOrTx,
  mailer: Mailer,
  user: { email: string; firstName: string | null },
  event: TwoFactorEvent,
  remainingRecoveryCodes: number | null = null,
): Promise<void> {
  await mailer.queue(tx, user.email, 'twoFactorChanged', {
    firstName: user.firstName,
    event,
    remainingRecoveryCodes,
    profileUrl: mailer.url('/profile'),
    forgotUrl: mailer.url('/forgot-password'),
  });
}
