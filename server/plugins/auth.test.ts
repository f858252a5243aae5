import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTokenService, resolveJwtSecret } from './auth';

describe('tokens', () => {
  const tokens = createTokenService('a'.repeat(40));

  it('round-trips the user id', async () => {
    const token = await tokens.sign({ id: 42, role: 'user' });
    expect(await tokens.verify(token)).toEqual({ userId: 42 });
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
});
