import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { calculateJwkThumbprint, importJWK, type CryptoKey, type JWK } from 'jose';
import { readOrCreatePrivateFile, replacePrivateFile } from '../../storage/private-files';
import { isoDate } from '../../time';

// The keys that sign the reports' verifiable credentials (docs/product/signed-reports.md): ES256
// (P-256) keys in one JSON file, the first "active" one signing, every other one "retired" but still
// published so that credentials it signed keep verifying. Rotation adds a new active key in front.

export const CREDENTIAL_ALG = 'ES256';
export const GENERATED_CREDENTIAL_KEYS_FILE = 'credential-keys.json';

type StoredKey = JWK & { kid: string; status: 'active' | 'retired'; created: string };
type KeyFile = { keys: StoredKey[] };

export type CredentialKeys = {
  /** The key new credentials are signed with. */
  active: { kid: string; privateKey: CryptoKey };
  /** Every key, active and retired, public parts only: what /.well-known/jwks.json serves. */
  jwks: { keys: JWK[] };
};

async function newStoredKey(now = new Date()): Promise<StoredKey> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y });
  return { ...jwk, kid, alg: CREDENTIAL_ALG, use: 'sig', status: 'active', created: isoDate(now) };
}

const publicPart = (k: StoredKey): JWK => ({
  kty: k.kty,
  crv: k.crv,
  x: k.x,
  y: k.y,
  kid: k.kid,
  alg: CREDENTIAL_ALG,
  use: 'sig',
});

export class CredentialKeysError extends Error {}

function parseKeyFile(text: string, where: string): KeyFile {
  let file: KeyFile;
  try {
    file = JSON.parse(text) as KeyFile;
  } catch {
    throw new CredentialKeysError(`${where} is not JSON`);
  }
  if (!Array.isArray(file.keys) || file.keys.length === 0)
    throw new CredentialKeysError(`${where} holds no keys`);
  for (const k of file.keys)
    if (k.kty !== 'EC' || k.crv !== 'P-256' || !k.kid || !k.x || !k.y)
      throw new CredentialKeysError(`${where}: every key must be a P-256 EC key with a kid`);
  return file;
}

export async function credentialKeysFrom(text: string, where: string): Promise<CredentialKeys> {
  const file = parseKeyFile(text, where);
  const active = file.keys.find((k) => k.status === 'active' && k.d);
  if (!active) throw new CredentialKeysError(`${where} has no active private key`);
  const { status: _status, created: _created, ...jwk } = active;
  const privateKey = await importJWK({ ...jwk, alg: CREDENTIAL_ALG }, CREDENTIAL_ALG);
  if (!('type' in privateKey)) throw new CredentialKeysError(`${where}: the active key cannot sign`);
  return { active: { kid: active.kid, privateKey }, jwks: { keys: file.keys.map(publicPart) } };
}

/** The key file at `path` (operator-provided), else DATA_DIR's, generated with one key on first start. */
export async function loadCredentialKeys(path: string | undefined, generatedPath: string) {
  if (path) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new CredentialKeysError(`CREDENTIAL_KEYS cannot be read: ${(err as Error).message}`);
    }
    return credentialKeysFrom(text, 'CREDENTIAL_KEYS');
  }
  const first = JSON.stringify({ keys: [await newStoredKey()] }, null, 2);
  return credentialKeysFrom(
    readOrCreatePrivateFile(generatedPath, () => first),
    generatedPath,
  );
}

/**
 * Puts a new active key in front of the file's keys and retires the others (they stay published).
 * Answers the new key's kid. Instances pick the new key up at their next start.
 */
export async function rotateCredentialKeys(path: string): Promise<string> {
  const file = parseKeyFile(readFileSync(path, 'utf8'), path);
  const fresh = await newStoredKey();
  // A retired key only verifies: its private part is dropped.
  const retired = file.keys.map(({ d: _d, ...k }) => ({ ...k, status: 'retired' as const }));
  const keys = [fresh, ...retired];
  replacePrivateFile(path, JSON.stringify({ keys }, null, 2));
  return fresh.kid;
}
