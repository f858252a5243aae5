import { type Actor, runsTheLab } from './actor';

// Who may do what with a collection's schedule: docs/product/roles-and-access.md. Reading a
// schedule (its summary and PDF) follows the collection: server/policies/collections.ts.

/** Issuing a collection's schedule: any staff member or admin (like issuing the reports it lists). */
export const canIssueSchedules = (actor: Actor) => runsTheLab(actor);
