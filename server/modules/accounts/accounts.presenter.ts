import type { AuthUserResponse } from '../../../common/contracts/accounts';
import type { UserRow } from './accounts.queries';

/** Storage key ('profile/x.png') → the /Uploads path the web app fetches with its token. */
export const uploadsPath = (key: string | null) => (key ? `/Uploads/${key}` : null);

export function presentAuthUser(u: UserRow, twoFactorSetupRequired = false): AuthUserResponse {
  return {
    id: u.id,
    email: u.email,
    phone: u.phone,
    firstName: u.firstName,
    lastName: u.lastName,
    profileImageUrl: uploadsPath(u.profileImageUrl),
    signature: uploadsPath(u.signature),
    qualifications: u.qualifications,
    role: u.role,
    emailVerified: u.emailVerifiedAt !== null,
    notifyStatusChanges: u.notifyStatusChanges,
    twoFactorEnabled: u.totpSecret !== null,
    twoFactorSetupRequired,
  };
}
