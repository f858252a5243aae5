import { describe, expect, it } from 'vitest';
import { LOGOUT_AUTH_SKIP_MS, tokenExpiry } from './session';

const b64url = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('tokenExpiry (docs/product/messages.md: expired or unparsable tokens end the session)', () => {
  it('reads exp in milliseconds', () => {
    expect(tokenExpiry(`${b64url({ alg: 'HS256' })}.${b64url({ sub: '1', exp: 1_700_000_000 })}.sig`)).toBe(
      1_700_000_000_000,
    );
  });
  it.each(['garbage', '', 'a.b.c', `x.${b64url({ sub: '1' })}.y`, `x.${b64url({ exp: 'soon' })}.y`])(
    'answers null for %j',
    (token) => {
      expect(tokenExpiry(token)).toBeNull();
    },
  );
  it('skips the auth check for 100 ms after logout', () => {
    expect(LOGOUT_AUTH_SKIP_MS).toBe(100);
  });
});
