import { z } from 'zod';

// Contact inquiries as the admin sees them (docs/product/statuses.md, api.md).

export const INQUIRY_STATUSES = ['new', 'pending', 'responded'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

export const contactInquiry = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactInquiry = z.infer<typeof contactInquiry>;
export const contactInquiryList = z.array(contactInquiry);

export const inquiryStatusRequest = z.object({
  status: z.enum(INQUIRY_STATUSES, { message: 'Invalid status' }),
});
export type InquiryStatusRequest = z.infer<typeof inquiryStatusRequest>;
