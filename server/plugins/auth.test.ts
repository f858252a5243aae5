import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTokenService, resolveJwtSecret, StartupError } from './auth';

describe('tokens', () => {
  const tokens = createTokenService('a'.repeat(40));

  it('round-trips the user id and session version, with a token id and an expiry', async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await tokens.sign({ id: 42, role: 'user', sessionVersion: 3 });
    const claims = await tokens.verify(token);
    expect(claims).toMatchObject({ userId: 42, sv: 3 });
    expect(claims?.jti).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(claims?.exp).toBeGreaterThan(before);
    const other = await tokens.verify(await tokens.sign({ id: 42, role: 'user' }));
    expect(other?.sv).toBe(0);
    expect(other?.jti).not.toBe(claims?.jti);
  });

  it('refuses expired, tampered and foreign tokens', async () => {
    const expired = await tokens.sign({ id: 1, role: 'user' }, -10);
    expect(await tokens.verify(expired)).toBeNull();
    const good = await tokens.sign({ id: 1, role: 'user' });
    const [h, p, s] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: '2', role: 'admin', exp: 9e9 })).toString('base64url')}.${s}`;
    expect(p).toBeTruthy();
    expect(await tokens.verify(forged)).toBeNull();
    const other = createTokenService('b'.repeat(40));
    expect(await tokens.verify(await other.sign({ id: 1, role: 'user' }))).toBeNull();
    expect(await tokens.verify('not.a.token')).toBeNull();
  });
});

describe('resolveJwtSecret', () => {
  it('generates a secret once, keeps it private in DATA_DIR, and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vl-secret-'));
    const first = resolveJwtSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveJwtSecret(undefined, dir)).toBe(first);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8')).toBe(first);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o077).toBe(0);
    expect(resolveJwtSecret('configured-secret-configured-secret', dir)).toBe(
      'configured-secret-configured-secret',
    );
  });

  it('writes the generated secret atomically with mode 0600, leaving no temporary file', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vl-secret-')), 'data');
    const secret = resolveJwtSecret(undefined, dir);
    expect(Buffer.byteLength(secret)).toBeGreaterThanOrEqual(32);
    expect(readdirSync(dir)).toEqual(['jwt-secret']);
    expect(statSync(join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a secret shorter than 32 bytes, given or read from DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vl-secret-'));
    expect(() => resolveJwtSecret('short-secret', dir)).toThrow(StartupError);
    expect(() => resolveJwtSecret('x'.repeat(31), dir)).toThrow(/shorter than 32 bytes/);
    writeFileSync(join(dir, 'jwt-secret'), 'too-short\n');
    expect(() => resolveJwtSecret(undefined, dir)).toThrow(StartupError);
    expect(() => resolveJwtSecret(undefined, dir)).toThrow(/jwt-secret/);
  });
});
