import { type Actor, isAdmin, runsTheLab } from './actor';

// Who may do what with the lab's own settings: docs/product/roles-and-access.md.

/** The lab logo: staff and admins (customers see it printed on their report PDFs). */
export const canReadLabLogo = (actor: Actor) => runsTheLab(actor);

/** Reading and changing the lab's name, address, certification and logo: admins only. */
export const canManageLabSettings = (actor: Actor) => isAdmin(actor);
