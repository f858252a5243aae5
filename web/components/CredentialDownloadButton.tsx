import { Button } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { reportCredentialPath } from '../lib/reports';

/**
 * Downloads the report's verifiable credential (a public file, so a plain link does it). Shown on
 * the sample page and the verification page (docs/product/signed-reports.md).
 */
export function CredentialDownloadButton({
  reportCode,
  size = 'xs',
}: {
  reportCode: string;
  size?: 'xs' | 'sm';
}) {
  return (
    <Button
      component="a"
      href={reportCredentialPath(reportCode)}
      // The server names the file Report-CODE-rN.jwt (N: the current revision).
      download
      variant="outline"
      size={size}
      leftSection={<IconCertificate size={14} aria-hidden="true" />}
    >
      Download Credential
    </Button>
  );
}
