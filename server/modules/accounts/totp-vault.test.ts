import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StartupError } from '../../plugins/auth';
import { newTotpSecret } from './totp';
import { createTotpVault, isSealed, resolveTotpKey, TotpKeyUnreadable } from './totp-vault';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vl-totp-key-'));
  dirs.push(dir);
  return dir;
};

describe('TotpVault', () => {
  const vault = createTotpVault(randomBytes(32));
  const secret = newTotpSecret();

  it('seals a key so that the stored form does not show it, and opens it again', () => {
    const stored = vault.seal(7, secret);
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain(secret);
    expect(stored.length).toBeLessThanOrEqual(128);
    expect(vault.open(7, stored)).toBe(secret);
    // A fresh nonce each time: the same key never looks the same twice.
    expect(vault.seal(7, secret)).not.toBe(stored);
  });

  it("refuses a value copied into another account's row, altered, or sealed with another key", () => {
    const stored = vault.seal(7, secret);
    expect(() => vault.open(8, stored)).toThrow(TotpKeyUnreadable);
    const raw = Buffer.from(stored.slice(3), 'base64url');
    raw[20] = (raw[20] ?? 0) ^ 1;
    expect(() => vault.open(7, `v1.${raw.toString('base64url')}`)).toThrow(TotpKeyUnreadable);
    expect(() => vault.open(7, 'v1.AAAA')).toThrow(TotpKeyUnreadable);
    expect(() => createTotpVault(randomBytes(32)).open(7, stored)).toThrow(TotpKeyUnreadable);
  });

  it('reads a key stored before encryption as it is, until start-up seals it', () => {
    expect(isSealed(secret)).toBe(false);
    expect(vault.open(7, secret)).toBe(secret);
  });
});

describe('resolveTotpKey', () => {
  it('takes TOTP_KEY as 64 hex characters or as base64', () => {
    const key = randomBytes(32);
    expect(resolveTotpKey(key.toString('hex'), tempDir())).toEqual(key);
    expect(resolveTotpKey(key.toString('base64url'), tempDir())).toEqual(key);
    expect(resolveTotpKey(key.toString('base64'), tempDir())).toEqual(key);
  });

  it('refuses to start with a TOTP_KEY that is not 32 bytes', () => {
    expect(() => resolveTotpKey('short', tempDir())).toThrow(StartupError);
    expect(() => resolveTotpKey(randomBytes(16).toString('hex'), tempDir())).toThrow(StartupError);
  });

  it('without TOTP_KEY, generates one key into DATA_DIR (mode 0600) and keeps it', () => {
    const dir = tempDir();
    const first = resolveTotpKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(resolveTotpKey(undefined, dir)).toEqual(first);
    expect(statSync(join(dir, 'totp-key')).mode & 0o077).toBe(0);
    expect(Buffer.from(readFileSync(join(dir, 'totp-key'), 'utf8').trim(), 'base64url')).toEqual(first);
    writeFileSync(join(dir, 'totp-key'), 'not a key');
    expect(() => resolveTotpKey(undefined, dir)).toThrow(StartupError);
  });
});
