import { LAB_CONTACT_EMAIL, LAB_FIXED_ADDRESS, LAB_FIXED_PHONE } from '../../common/domain/reports';

// How visitors reach the lab: shown in the footer and on the contact page.
export { LAB_CONTACT_EMAIL };
export const LAB_ADDRESS = LAB_FIXED_ADDRESS;
export const LAB_PHONE = LAB_FIXED_PHONE;
export const LAB_PHONE_HREF = `tel:${LAB_FIXED_PHONE.replace(/[^+\d]/g, '')}`;

/** The contact page's business hours, exactly as documented (docs/product/screens.md). */
export const BUSINESS_HOURS = [
  { days: 'Mon-Fri', hours: '9:00 AM-6:00 PM' },
  { days: 'Sat', hours: '10:00 AM-4:00 PM' },
  { days: 'Sun', hours: 'Closed' },
] as const;
export const BUSINESS_HOURS_NOTE = 'Consultations by appointment outside business hours.';
