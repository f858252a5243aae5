import { type Actor, isAdmin, runsTheLab } from './actor';

// Who may do what with an item's custody and the lab's storage locations
// (docs/product/roles-and-access.md, docs/product/custody.md).

/** Checking an item in, moving it, handing it to an expert, returning it, printing its label: staff and admins. */
export const canHandleCustody = (actor: Actor) => runsTheLab(actor);

/** The lab's whereabouts of an item (its location, every event, the lab's notes): staff and admins. */
export const seesCustodyDetails = (actor: Actor) => runsTheLab(actor);

/** Reading the storage locations (to choose one) and the inventory: staff and admins. */
export const canListLocations = (actor: Actor) => runsTheLab(actor);

/** Creating, renaming and retiring storage locations: admins only. */
export const canManageLocations = (actor: Actor) => isAdmin(actor);
