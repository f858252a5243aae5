import { z } from 'zod';
import { BAD_UNSUBSCRIBE_LINK } from './mail-constants';

// The admin Outbox and the unsubscribe link (docs/product/mail.md).

export const MAIL_STATES = ['pending', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export const outboxItem = z.object({
  id: z.number(),
  kind: z.string(),
  toAddress: z.string(),
  subject: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxItem = z.infer<typeof outboxItem>;

export const outboxList = z.object({
  /** False when SMTP_URL is unset: mails wait here and nothing is delivered. */
  smtpConfigured: z.boolean(),
  total: z.number(),
  mails: z.array(outboxItem),
});
export type OutboxList = z.infer<typeof outboxList>;

export const outboxDetail = outboxItem.extend({
  html: z.string(),
  text: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type OutboxDetail = z.infer<typeof outboxDetail>;

export const outboxQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const unsubscribeQuery = z.object({ token: z.string().max(200).optional() });
export const unsubscribeRequest = z.object({ token: z.string().min(1).max(200) });
export const unsubscribeResponse = z.object({ message: z.string() });
export const UNSUBSCRIBED_MESSAGE = "You will no longer receive e-mails when your sample's status changes.";
export { BAD_UNSUBSCRIBE_LINK };
