import { createHmac, timingSafeEqual } from 'node:crypto';

// HS256 JSON Web Tokens (RFC 7519) with node:crypto, synchronously. The app signs and checks only
// its own tokens with one secret, so this is the whole of what it needs: every authenticated
// request checks a token, and WebCrypto (what jose uses) sends each HMAC to the thread pool as an
// async job and re-imports the key — about 4 % of the server's CPU under the load benchmark plus a
// thread-pool round trip per request (docs/benchmarks.md). Tokens are interoperable with jose
// (tested both ways).

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type JwtClaims = { sub: string; iat: number; exp: number; [claim: string]: unknown };

export function signJwt(secret: Buffer, claims: JwtClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The claims of a token signed with this secret that has not expired, else null. Only HS256 is
 * accepted (never `none` or another algorithm named in the header), no critical extensions, and
 * `exp` is required.
 */
export function verifyJwt(secret: Buffer, token: string, nowSeconds = Date.now() / 1000): JwtClaims | null {
  if (token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header = '', payload = '', signature = ''] = parts;
  if (!BASE64URL.test(header) || !BASE64URL.test(payload) || !BASE64URL.test(signature)) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const head = decodeJson(header);
  if (!head || head.alg !== 'HS256' || 'crit' in head || (head.typ !== undefined && head.typ !== 'JWT'))
    return null;
  const claims = decodeJson(payload);
  if (!claims || typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return null;
  if (claims.exp <= nowSeconds) return null;
  if (typeof claims.nbf === 'number' && claims.nbf > nowSeconds) return null;
  if (typeof claims.sub !== 'string') return null;
  return claims as JwtClaims;
}
