import type { Actor } from './actor';
import { canHoldApiKeys } from './api-keys';

// Who may register webhooks: docs/product/roles-and-access.md.

/** The owner of the events' samples (a customer) or an admin for the lab; never staff. */
export const canManageWebhooks = (actor: Actor) => canHoldApiKeys(actor);
