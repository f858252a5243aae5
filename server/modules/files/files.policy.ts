import { isLabRole } from '../../../common/domain/roles';
import type { AuthUser } from '../../plugins/auth';

// Who may read a stored file (CONTRACT §2: /Uploads is never public).

/** A sample's files follow the sample: its owner, staff and admins. */
export const canReadSampleFile = (user: AuthUser, sampleOwnerId: number) =>
  user.id === sampleOwnerId || isLabRole(user.role);

/** Profile pictures and signatures: their owner and admins (the server reads signatures itself for PDFs). */
export const canReadPersonalImage = (user: AuthUser, ownerId: number) =>
  user.id === ownerId || user.role === 'admin';

/** The lab logo: staff and admins (customers see it on their report PDFs). */
export const canReadLogo = (user: AuthUser) => isLabRole(user.role);
