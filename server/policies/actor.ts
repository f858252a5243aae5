import { isLabRole, type Role } from '../../common/domain/roles';

// The building blocks every policy in this folder composes (docs/product/roles-and-access.md).
// A deactivated account may do nothing, so each block asks for an active one.

/** The signed-in person asking: the session's user (server/plugins/auth.ts) or any account row. */
export type Actor = { id: number; role: Role; isActive: boolean };

/** An active admin. */
export const isAdmin = (actor: Actor) => actor.isActive && actor.role === 'admin';

/** An active member of the lab: staff or admin (every other role is a customer). */
export const runsTheLab = (actor: Actor) => actor.isActive && isLabRole(actor.role);

/** The active account `ownerId` names. */
export const isSelf = (actor: Actor, ownerId: number) => actor.isActive && actor.id === ownerId;
