import { Alert, Anchor, Button, Card, Code, Group, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCertificate, IconSignature } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { CredentialCheckResponse } from '../../../../common/contracts/credentials';
import { CREDENTIAL_REQUIRED_MESSAGE } from '../../../../common/contracts/credentials-constants';
import { CredentialDownloadButton } from '../../../components/CredentialDownloadButton';
import { errorMessage } from '../../../lib/api';
import { formatLongDate } from '../../../lib/format';
import { LAB_ROOT_CA_PATH } from '../../../lib/reports';
import { toast } from '../../../lib/toast';
import { useCheckCredential } from '../api';

// The parts of /verify-report that work without our website later (docs/product/signed-reports.md):
// the report's credential to keep, how to trust our PDF signatures, and checking a credential.

export const CREDENTIAL_TITLES: Record<CredentialCheckResponse['status'], string> = {
  current: 'Genuine credential: current',
  superseded: 'Genuine credential: superseded',
  revoked: 'Genuine credential: report revoked',
  'not-genuine': 'Not a genuine credential',
  unknown: 'Signed by us, but not on record',
};

/** Under a verified report: download its credential. */
export function CredentialDownload({ reportCode }: { reportCode: string }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Keep a verifiable credential
        </Title>
        <Text size="sm" c="dimmed">
          The credential is a small signed file (a W3C Verifiable Credential) stating this report&apos;s code,
          revision, item, who signed it off and the fingerprint of its PDF. Any standard verifier can check it
          with our public keys, without this website.
        </Text>
        <Group>
          <CredentialDownloadButton reportCode={reportCode} size="sm" />
        </Group>
      </Stack>
    </Card>
  );
}

/** The "Paste a credential" box. */
export function CredentialCheck() {
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string | null>(null);
  const check = useCheckCredential();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!credential.trim()) {
      setError(CREDENTIAL_REQUIRED_MESSAGE);
      return;
    }
    setError(null);
    check.mutate(credential.trim(), {
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to check the credential')),
    });
  };
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="form"
      onSubmit={submit}
      aria-label="Check a credential"
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Paste a credential
        </Title>
        <Text size="sm" c="dimmed">
          Received a report credential (a long text starting with <Code>eyJ</Code>)? Paste it here to check
          that we signed it and whether its report is still current.
        </Text>
        <Textarea
          label="Credential"
          name="credential"
          placeholder="eyJhbGciOiJFUzI1NiIs..."
          autosize
          minRows={3}
          maxRows={8}
          value={credential}
          error={error}
          onChange={(e) => {
            setCredential(e.currentTarget.value);
            setError(null);
            check.reset();
          }}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' } }}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="light" disabled={check.isPending}>
            {check.isPending ? 'Checking...' : 'Check Credential'}
          </Button>
        </Group>
        {check.data ? <CredentialResult result={check.data} /> : null}
      </Stack>
    </Card>
  );
}

function CredentialResult({ result }: { result: CredentialCheckResponse }) {
  const color = result.status === 'current' ? 'teal' : result.status === 'superseded' ? 'yellow' : 'red';
  const s = result.subject;
  return (
    <Alert
      color={color}
      role={result.genuine ? 'status' : 'alert'}
      title={CREDENTIAL_TITLES[result.status]}
      data-status={result.status}
    >
      <Stack gap={4}>
        <Text size="sm">{result.message}</Text>
        {s ? (
          <Text size="sm">
            Report{' '}
            <Text span ff="monospace" fw={600}>
              {s.reportCode}
            </Text>
            , revision {s.revision} — {s.item} ({s.category}), issued {formatLongDate(s.issueDate)}.
          </Text>
        ) : null}
        {s?.analyzedBy ? (
          <Text size="sm" data-testid="credential-sign-off">
            Analyzed by {s.analyzedBy}
            {s.reviewedBy ? `, reviewed by ${s.reviewedBy}` : ''}.
          </Text>
        ) : null}
        {result.status === 'revoked' && result.revokedAt ? (
          <Text size="sm">Revoked on {formatLongDate(result.revokedAt)}.</Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** How to see our PDF signatures as trusted: the root certificate and three steps. */
export function TrustTheSignature() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm">
        <Group gap="xs">
          <IconSignature size={22} aria-hidden="true" color="var(--mantine-color-blue-7)" />
          <Title order={2} size="h4">
            Our PDFs are digitally signed
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          Every report PDF carries the laboratory&apos;s digital signature. Your PDF reader shows who signed
          it and warns if even one byte was changed. To have it show the signer as trusted:
        </Text>
        <List size="sm" type="ordered" spacing={4}>
          <List.Item>
            Download our{' '}
            <Anchor href={LAB_ROOT_CA_PATH} download="lab-root-ca.pem">
              laboratory root certificate
            </Anchor>
            .
          </List.Item>
          <List.Item>
            Add it to your reader&apos;s trusted certificates (in Adobe Acrobat: Preferences → Signatures →
            Identities &amp; Trusted Certificates → Trusted Certificates → Import), allowing it for signed
            documents.
          </List.Item>
          <List.Item>Open the report: the signature panel now says it is valid and trusted.</List.Item>
        </List>
        <Group gap={6}>
          <IconCertificate size={16} aria-hidden="true" />
          <Text size="xs" c="dimmed">
            Only trust a certificate you downloaded from this website.
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}
