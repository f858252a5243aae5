// The unsubscribe link's answer without zod (docs/product/mail.md): the public /unsubscribe page
// imports it without the mail schemas (scripts/check-web-size.mjs). ./mail re-exports it.

export const BAD_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid.';
