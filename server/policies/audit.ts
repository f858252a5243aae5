import { type Actor, isAdmin } from './actor';

// Who may read the audit trail: docs/product/roles-and-access.md.

/** Reading, exporting and verifying the audit trail: admins only. */
export const canReadAuditTrail = (actor: Actor) => isAdmin(actor);
