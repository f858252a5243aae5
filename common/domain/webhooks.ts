// Webhooks (docs/product/partners.md): the events a partner's system can subscribe to.
export const WEBHOOK_EVENTS = [
  'sample.status_changed',
  'sample.received',
  'report.issued',
  'report.revoked',
  'quote.sent',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'sample.status_changed': 'A sample’s status changed',
  'sample.received': 'A sample was received at the lab',
  'report.issued': 'A report was issued',
  'report.revoked': 'A report was withdrawn',
  'quote.sent': 'A quote was sent',
};

/** The event "Send test event" delivers; every endpoint receives it whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
/** Characters of an endpoint's answer kept in the delivery log. */
export const WEBHOOK_RESPONSE_SNIPPET_CHARS = 500;
/** An endpoint that has not answered within this is a failed attempt (retried). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Attempts of one delivery before it is marked failed (about a day with the back-off). */
export const WEBHOOK_MAX_ATTEMPTS = 12;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
