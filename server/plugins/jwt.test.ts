import { createHmac } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from './jwt';

const secret = Buffer.from('s'.repeat(40));
const now = Math.floor(Date.now() / 1000);
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const sign = (header: unknown, payload: unknown, key = secret) => {
  const h = b64(header);
  const p = b64(payload);
  return `${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`;
};

describe('HS256 tokens', () => {
  it('round-trips the claims', () => {
    const token = signJwt(secret, { sub: '7', role: 'staff', iat: now, exp: now + 60 });
    expect(verifyJwt(secret, token)).toEqual({ sub: '7', role: 'staff', iat: now, exp: now + 60 });
  });

  it('interoperates with jose both ways', async () => {
    const ours = signJwt(secret, { sub: '7', role: 'user', iat: now, exp: now + 60 });
    const { payload, protectedHeader } = await jwtVerify(ours, secret, { algorithms: ['HS256'] });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload.sub).toBe('7');
    expect(decodeJwt(ours).exp).toBe(now + 60);
    const theirs = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('9')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(secret);
    expect(verifyJwt(secret, theirs)?.sub).toBe('9');
  });

  it('refuses expired, not-yet-valid, tampered, foreign and malformed tokens', () => {
    const good = signJwt(secret, { sub: '1', iat: now, exp: now + 60 });
    expect(verifyJwt(secret, signJwt(secret, { sub: '1', iat: now, exp: now - 1 }))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256' }, { sub: '1', exp: now + 60, nbf: now + 30 }))).toBeNull();
    const [h, , s] = good.split('.');
    expect(verifyJwt(secret, `${h}.${b64({ sub: '2', exp: now + 60 })}.${s}`)).toBeNull();
    expect(verifyJwt(Buffer.from('t'.repeat(40)), good)).toBeNull();
    expect(verifyJwt(secret, `${good}x`)).toBeNull();
    for (const bad of ['', 'a.b', 'a.b.c', 'a.b.c.d', `${h}..${s}`, `${good}.`, 'x'.repeat(5000)])
      expect(verifyJwt(secret, bad)).toBeNull();
  });

  it('accepts only HS256: no "none", no other algorithm, no critical extensions, exp and sub required', () => {
    const claims = { sub: '1', exp: now + 60 };
    expect(verifyJwt(secret, sign({ alg: 'HS256' }, claims))).not.toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'none' }, claims))).toBeNull();
    expect(verifyJwt(secret, `${b64({ alg: 'none' })}.${b64(claims)}.`)).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS512' }, claims))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256', crit: ['b64'], b64: false }, claims))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256', typ: 'at+jwt' }, claims))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256' }, { sub: '1' }))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256' }, { sub: 1, exp: now + 60 }))).toBeNull();
    expect(verifyJwt(secret, sign({ alg: 'HS256' }, [1, 2]))).toBeNull();
  });
});
