import { type Actor, isAdmin } from './actor';

// Who may hold API keys and webhooks: docs/product/roles-and-access.md. A key acts as its owner, so
// a customer's key reaches that customer's data and an admin's key the lab's.

/** Creating and listing API keys: customers (for their own data) and admins (for the lab), not staff. */
export const canHoldApiKeys = (actor: Actor) => actor.isActive && (actor.role === 'user' || isAdmin(actor));
