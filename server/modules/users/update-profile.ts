import { randomBytes } from 'node:crypto';
import {
  CURRENT_PASSWORD_REQUIRED,
  EMAIL_TAKEN_MESSAGE,
  WRONG_CURRENT_PASSWORD,
} from '../../../common/contracts/accounts';
import type { AppDeps } from '../../app-deps';
import type { AuthUser } from '../../plugins/auth';
import { badRequest, conflict, toHttpError, unauthorized } from '../../plugins/errors';
import type { ImageUpload } from '../../plugins/image-upload';
import { newVerifyUrl } from '../accounts/account-tokens';
import { type UserRow, findUserById } from '../accounts/accounts.queries';
import { checkCurrentPassword } from '../accounts/current-password';
import { sanitizeNotes } from '../reports/notes-sanitizer';
import type { ProfileForm } from './profile-form';
import { emailTakenByOther, markEmailUnverified, updateProfile as writeProfile } from './users.queries';

type ProfileDeps = Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'loginThrottle'>;

/**
 * A signed-in person updates their profile (docs/product/accounts-and-sessions.md): a new e-mail
 * address needs the current password, is unconfirmed until its link is followed, and both the old and
 * the new address are mailed in the update's transaction. New images are stored first and removed
 * again when the update fails; the images they replace leave storage once the row points at the new
 * ones. 409 when another account has the address.
 */
export async function updateProfile(
  deps: ProfileDeps,
  user: AuthUser,
  form: ProfileForm,
  ip: string,
): Promise<UserRow> {
  const { profile } = form;
  if (await emailTakenByOther(deps.db, profile.email, user.id)) throw conflict(EMAIL_TAKEN_MESSAGE);
  const before = await findUserById(deps.db, user.id);
  if (!before) throw unauthorized('Invalid or expired token');
  const emailChanges = profile.email !== before.email;
  if (emailChanges) {
    if (!profile.currentPassword)
      throw badRequest(CURRENT_PASSWORD_REQUIRED, [
        { path: 'currentPassword', message: CURRENT_PASSWORD_REQUIRED },
      ]);
    await checkCurrentPassword(
      deps.loginThrottle,
      before,
      profile.currentPassword,
      ip,
      'currentPassword',
      WRONG_CURRENT_PASSWORD,
    );
  }
  const { currentPassword: _currentPassword, qualifications, ...rest } = profile;
  const changes = {
    ...rest,
    ...(qualifications === undefined ? {} : { qualifications: sanitizeNotes(qualifications) }),
  };

  const written: string[] = [];
  try {
    const profileImageUrl = form.profileImage
      ? await storeImage(deps, 'profile', form.profileImage)
      : undefined;
    if (profileImageUrl) written.push(profileImageUrl);
    const signature = form.signature ? await storeImage(deps, 'signature', form.signature) : undefined;
    if (signature) written.push(signature);
    const updated = await deps.db.transaction(async (tx) => {
      const row = await writeProfile(tx, user.id, { ...changes, profileImageUrl, signature });
      if (row && emailChanges) {
        // The old address is told; the new one gets its own confirmation link.
        await markEmailUnverified(tx, row.id);
        row.emailVerifiedAt = null;
        await deps.mailer.queue(tx, before.email, 'emailChanged', {
          firstName: row.firstName,
          newEmail: row.email,
          forgotUrl: deps.mailer.url('/contact'),
        });
        await deps.mailer.queue(tx, row.email, 'verifyEmail', {
          firstName: row.firstName,
          verifyUrl: await newVerifyUrl(tx, deps.mailer, row),
        });
      }
      return row;
    });
    if (!updated) throw unauthorized('Invalid or expired token');
    // Replaced images leave storage once the row points at the new ones.
    await removeQuietly(deps, [profileImageUrl && before.profileImageUrl, signature && before.signature]);
    return updated;
  } catch (err) {
    await removeQuietly(deps, written);
    // Another account took the e-mail between the check and the update.
    if (toHttpError(err).status === 409) throw conflict(EMAIL_TAKEN_MESSAGE);
    throw err;
  }
}

async function storeImage(deps: ProfileDeps, folder: 'profile' | 'signature', image: ImageUpload) {
  const key = `${folder}/${randomBytes(16).toString('hex')}.${image.ext}`;
  await deps.storage.put(key, image.buffer);
  return key;
}

async function removeQuietly(deps: ProfileDeps, keys: (string | null | undefined)[]) {
  for (const key of keys) {
    if (!key) continue;
    try {
      await deps.storage.delete(key);
    } catch {
      // A file that cannot be removed now is an orphan, not a failed request.
    }
  }
}
