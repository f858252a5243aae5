import { join } from 'node:path';
import type { Config } from '../../config';
import { type CredentialKeys, GENERATED_CREDENTIAL_KEYS_FILE, loadCredentialKeys } from './credential-keys';
import { loadPdfSigningIdentity } from './lab-certificates';
import { createPdfSigner, type PdfSigner } from './pdf-signer';

/** Everything the lab signs with, loaded once at start (docs/product/signed-reports.md). */
export type LabKeys = {
  pdf: PdfSigner & { rootCaPem: string; source: 'p12' | 'generated' };
  credentials: CredentialKeys;
};

export async function loadLabKeys(config: Config, labName: string): Promise<LabKeys> {
  const identity = loadPdfSigningIdentity({
    p12Path: config.signingP12,
    p12Passphrase: config.signingP12Passphrase,
    dataDir: config.dataDir,
    labName,
  });
  const credentials = await loadCredentialKeys(
    config.credentialKeys,
    join(config.dataDir, GENERATED_CREDENTIAL_KEYS_FILE),
  );
  return {
    pdf: { ...createPdfSigner(identity), rootCaPem: identity.rootCaPem, source: identity.source },
    credentials,
  };
}
