import { isLabRole } from '../../../common/domain/roles';
import type { AuthUser } from '../../plugins/auth';

// Who may do what with a sample (CONTRACT §2). Anyone else gets 404: existence is never revealed.

/** The owner, any staff member and admins read a sample with its files and history. */
export const canReadSample = (user: AuthUser, sample: { userId: number }) =>
  user.id === sample.userId || isLabRole(user.role);

/** Every signed-in, active user may submit a sample of their own (spec §6 "Customer"). */
export const canSubmitSample = (_user: AuthUser) => true;
