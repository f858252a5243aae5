// The credential check's texts without zod (docs/product/signed-reports.md): the public
// /verify-report page imports them without the credential schemas (scripts/check-web-size.mjs).
// ./credentials re-exports them.

export const CREDENTIAL_REQUIRED_MESSAGE = 'Paste a credential to check';
export const CREDENTIAL_TOO_LONG_MESSAGE = 'A credential is at most 20,000 characters';
