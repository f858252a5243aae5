import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

// Live tokens in mails (docs/decisions/0020-account-hardening-two.md). A reset, confirmation or
// unsubscribe link carries a token that acts for its owner. The copy of a mail the lab keeps (the
// admin Outbox, the database and its backups) shows that link with the token replaced by a marker
// (`token=REDACTED-1`); the live tokens are sealed beside it with AES-256-GCM under a key derived from
// the server's secret (JWT_SECRET or DATA_DIR/jwt-secret, never in the database), put back only into
// the message handed to the mail server, and the sealed copy is dropped once the mail is sent.

/** A `token` query parameter in a link (the HTML form may write `&` as `&amp;`). */
const TOKEN_IN_LINK = /([?&](?:amp;)?token=)([A-Za-z0-9._~%-]{16,})/g;
const MARKER = 'REDACTED-';
const MARKER_IN_LINK = /([?&](?:amp;)?token=)(REDACTED-\d+)/g;
const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type MailParts = { html: string; text: string; headers: Record<string, string> };

/** Thrown at delivery when the sealed tokens cannot be opened (the server's secret changed). */
export class SealedTokensUnreadable extends Error {}

export type LiveTokenVault = {
  /**
   * The mail with every link token replaced by a marker, and the tokens sealed for `to` (null when
   * the mail has none).
   */
  redact(to: string, mail: MailParts): { mail: MailParts; sealed: string | null };
  /** The mail as sent: each marker back to its live token. */
  restore(to: string, mail: MailParts, sealed: string): MailParts;
};

const mapParts = (mail: MailParts, f: (s: string) => string): MailParts => ({
  html: f(mail.html),
  text: f(mail.text),
  headers: Object.fromEntries(Object.entries(mail.headers).map(([k, v]) => [k, f(v)])),
});

/** Whether a stored text still holds a live link token (not a marker). */
export const holdsLiveToken = (text: string) =>
  [...text.matchAll(TOKEN_IN_LINK)].some((m) => !m[2]?.startsWith(MARKER));

export function createLiveTokenVault(serverSecret: string): LiveTokenVault {
  const key = createHmac('sha256', serverSecret).update('mail-live-tokens-v1').digest();
  const aad = (to: string) => Buffer.from(`mail-tokens:${to.toLowerCase()}`);
  return {
    redact(to, mail) {
      const markers = new Map<string, string>();
      const redacted = mapParts(mail, (s) =>
        s.replace(TOKEN_IN_LINK, (_all, prefix: string, token: string) => {
          if (token.startsWith(MARKER)) return `${prefix}${token}`;
          let marker = markers.get(token);
          if (!marker) {
            marker = `${MARKER}${markers.size + 1}`;
            markers.set(token, marker);
          }
          return `${prefix}${marker}`;
        }),
      );
      if (markers.size === 0) return { mail, sealed: null };
      const plain = JSON.stringify(
        Object.fromEntries([...markers].map(([token, marker]) => [marker, token])),
      );
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(to));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return {
        mail: redacted,
        sealed: SEALED_PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url'),
      };
    },
    restore(to, mail, sealed) {
      let tokens: Record<string, string>;
      try {
        if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('unknown form');
        const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(aad(to));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
        tokens = JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
      } catch {
        throw new SealedTokensUnreadable(
          "this mail's links cannot be opened with the server's secret (was JWT_SECRET changed?): ask for a new link",
        );
      }
      return mapParts(mail, (s) =>
        s.replace(MARKER_IN_LINK, (all, prefix: string, marker: string) =>
          tokens[marker] ? `${prefix}${tokens[marker]}` : all,
        ),
      );
    },
  };
}
