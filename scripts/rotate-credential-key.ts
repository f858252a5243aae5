// `npm run credential-key:rotate`: a new active key for report credentials, in front of the key file
// (CREDENTIAL_KEYS, else DATA_DIR/credential-keys.json). Earlier keys stay published as retired, so
// credentials they signed keep verifying. Instances sign with the new key from their next start.
// docs/product/signed-reports.md
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import {
  GENERATED_CREDENTIAL_KEYS_FILE,
  loadCredentialKeys,
  rotateCredentialKeys,
} from '../server/modules/signing/credential-keys';

async function main() {
  const config = loadConfig();
  const file = config.credentialKeys ?? join(config.dataDir, GENERATED_CREDENTIAL_KEYS_FILE);
  // Creates the file with a first key when the lab has never started yet.
  await loadCredentialKeys(config.credentialKeys, file);
  const kid = await rotateCredentialKeys(file);
  console.log(`New active credential key ${kid} in ${file}.`);
  console.log('Restart the instances to sign with it; earlier keys stay listed in /.well-known/jwks.json.');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
