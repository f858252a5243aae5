import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum) — about 8 ms here.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verified against when the e-mail is unknown, so both failures cost the same time. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password-but-real-cost');
  return dummyHash;
}
