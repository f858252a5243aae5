import { type Actor, isSelf, runsTheLab } from './actor';

// Who may do what with a collection: docs/product/roles-and-access.md. A collection follows the
// rule of the samples in it: whoever may not read it is told 404 (its existence is never revealed);
// whoever may read it but not change it is told 403.

/** The parts of a collection that decide access. */
export type CollectionAccess = { userId: number };

/** Making a collection of one's own samples: any active account (the lab's accounts hold their own, like samples). */
export const canCreateCollection = (actor: Actor) => actor.isActive;

/** The owner, any staff member and admins read a collection with its items (as they read its samples). */
export const canReadCollection = (actor: Actor, collection: CollectionAccess) =>
  isSelf(actor, collection.userId) || runsTheLab(actor);

/** Filling a collection (adding samples, importing a CSV): its owner only, with their own samples. */
export const canFillCollection = (actor: Actor, collection: CollectionAccess) =>
  isSelf(actor, collection.userId);
