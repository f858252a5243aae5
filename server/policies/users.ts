import type { Role } from '../../common/domain/roles';
import { type Actor, isAdmin, isSelf, runsTheLab } from './actor';

// Who may do what with accounts: docs/product/roles-and-access.md. Every rule of this resource
// lives here; handlers and route guards call these functions and never compare roles themselves.

/**
 * Whether the lab's `require2faForStaff` setting holds this person back until they set up two-factor
 * sign-in: staff and admins only (customers may opt in).
 */
export const mustSetUpTwoFactor = (actor: Actor, twoFactorEnabled: boolean, labRequiresIt: boolean) =>
  labRequiresIt && runsTheLab(actor) && !twoFactorEnabled;

/** Listing accounts and changing roles: admins only. */
export const canManageUsers = (actor: Actor) => isAdmin(actor);

/**
 * Resetting another account's two-factor sign-in (its owner lost the phone and the codes): admins
 * only, and never their own — their own is turned off from the profile, with password and code, so
 * a stolen admin session cannot strip the admin's second factor.
 */
export const canResetTwoFactor = (actor: Actor, target: { id: number }) =>
  isAdmin(actor) && actor.id !== target.id;

/** A signature is printed on reports, so only the people who issue reports may upload one. */
export const canUploadSignature = (actor: Actor) => runsTheLab(actor);

/** Qualifications are printed in the certification of reports, so only the people who sign reports keep them. */
export const canKeepQualifications = (actor: Actor) => runsTheLab(actor);

/** A profile picture or signature: its owner and admins (the server reads signatures itself for PDFs). */
export const canReadPersonalImage = (actor: Actor, owner: { id: number }) =>
  isSelf(actor, owner.id) || isAdmin(actor);

/**
 * Whether changing `target` to `after` would leave no active admin. The lab always keeps one, so
 * such a change is refused (409); `activeAdminIds` are read, and locked, in the same transaction.
 */
export function removesLastAdmin(
  activeAdminIds: readonly number[],
  target: { id: number },
  after: { role: Role; isActive: boolean },
): boolean {
  if (!activeAdminIds.includes(target.id)) return false;
  if (after.role === 'admin' && after.isActive) return false;
  return activeAdminIds.every((id) => id === target.id);
}
