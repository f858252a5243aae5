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
  /** The admin's answer, mailed to the sender (docs/product/mail.md). */
  replyMessage: z.string().nullable(),
  repliedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactInquiry = z.infer<typeof contactInquiry>;
export const contactInquiryList = z.array(contactInquiry);

export const inquiryStatusRequest = z.object({
  status: z.enum(INQUIRY_STATUSES, { message: 'Invalid status' }),
});
export type InquiryStatusRequest = z.infer<typeof inquiryStatusRequest>;

export const INQUIRY_REPLY_MAX = 10_000;
export const inquiryReplyRequest = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'Reply is required')
    .max(INQUIRY_REPLY_MAX, `Reply must be at most ${INQUIRY_REPLY_MAX} characters`),
});
export type InquiryReplyRequest = z.infer<typeof inquiryReplyRequest>;

/** GET /api/admin/contact-inquiries.csv: every inquiry, newest first; `status` (repeatable) narrows it. */
export const inquiryExportQuery = z.object({
  status: z.preprocess(
    (v) =>
      v === undefined || v === ''
        ? undefined
        : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')),
    z
      .array(z.enum(INQUIRY_STATUSES, { message: 'Invalid status' }))
      .max(10)
      .optional(),
  ),
});
