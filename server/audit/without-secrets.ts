// What an audit event may never hold (docs/product/audit-trail.md): passwords and their hashes,
// tokens, two-factor keys and recovery codes, API keys and signing secrets. Every event's before and
// after values pass through here on their way in, so a caller that hands over a whole row by mistake
// leaves these fields out of the log rather than writing them into a table no one can clean.

/** Field names that hold a secret, compared without case, `_` or `-`: passwordHash, password_hash … */
const SECRET_NAME =
  /password|passphrase|passwd|secret|token|totp|recovery|hash|apikey|^key$|privatekey|credential|cookie|authorization|signingkey/;

/** True for a field name that holds a secret. */
export function isSecretField(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[_-]/g, ''));
}

/** A deep copy of `value` without the fields that hold secrets (at any depth, also inside arrays). */
export function withoutSecrets<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(strip);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (isSecretField(key)) continue;
    out[key] = strip(v);
  }
  return out;
}
