import { isLabRole } from '../../../common/domain/roles';
import type { AuthUser } from '../../plugins/auth';

// Who may do what with their account (spec §6). Listing accounts and changing roles are admin-only
// and guarded by requireRole('admin') on the routes.

/** A signature is printed on reports, so only the people who issue reports may upload one. */
export const canUploadSignature = (user: AuthUser) => isLabRole(user.role);
