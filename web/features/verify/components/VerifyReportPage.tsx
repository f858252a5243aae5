import { Alert, Button, Card, Container, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileSearch, IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { normalizeReportCode } from '../../../../common/domain/reports';
import { errorMessage, HttpError } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { verificationQuery } from '../api';
import { CredentialCheck, TrustTheSignature } from './OfflineProof';

// What a verified code shows (the report's facts, its verdicts, the analysis table, the PDF check)
// is loaded with the answer, so the page a visitor opens stays light (docs/benchmarks.md).
const loadVerifyResult = () => import('./VerifyResult');
const VerifyResult = lazy(() => loadVerifyResult().then((m) => ({ default: m.VerifyResult })));

export const NOT_FOUND_TITLE = 'Report not found or invalid code';
export const NOT_FOUND_TEXT = 'Report not found. Please check your verification code and try again.';

/**
 * The words for a failed verification: a 404 is an unknown code, anything else its own message.
 * An unknown code shows each of its two texts once: the short title in the toast, the advice in the
 * box (docs/product/messages.md).
 */
function verificationFailure(err: unknown): { toast: [string, string?]; boxTitle?: string; text: string } {
  if (err instanceof HttpError && err.status === 404)
    return { toast: [NOT_FOUND_TITLE], text: NOT_FOUND_TEXT };
  const text = errorMessage(err, 'Failed to verify report');
  return { toast: ['Error', text], boxTitle: 'Error', text };
}

/**
 * /verify-report (public): by code, by uploading the PDF, and at once on load from ?code= (a QR code
 * opens that address), and by pasting a credential (docs/product/signed-reports.md). The code in the address is the query's key: submitting the form puts it there.
 */
export function VerifyReportPage() {
  usePageTitle('Verify Report');
  const [params, setParams] = useSearchParams();
  const checkedCode = normalizeReportCode(params.get('code') ?? '');
  const [code, setCode] = useState(checkedCode);
  // A share link (…&share=TOKEN) adds the value; a code typed afresh drops it.
  const share = params.get('share') ?? '';
  const verification = useQuery(verificationQuery(checkedCode, share));
  // Fetched beside the verification itself, so the result and its table are there when the answer is.
  useEffect(() => {
    if (checkedCode) void loadVerifyResult().then((m) => m.loadElementsTable());
  }, [checkedCode]);
  const failure = verification.isError ? verificationFailure(verification.error) : null;

  // One toast per failed answer (a new error object each time, also when the same code is re-sent).
  const failedWith = verification.isError ? verification.error : null;
  useEffect(() => {
    if (!failedWith) return;
    toast.error(...verificationFailure(failedWith).toast);
  }, [failedWith]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const normalized = normalizeReportCode(code);
    if (!normalized || verification.isFetching) return;
    if (normalized === checkedCode) void verification.refetch();
    else setParams({ code: normalized }, { replace: true });
  };

  const result = verification.isSuccess && !verification.isFetching ? verification.data : null;
  const failed = failure && !verification.isFetching ? failure : null;

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Stack gap={4} align="center" ta="center">
          <IconShieldCheck size={44} aria-hidden="true" color="var(--mantine-color-blue-7)" />
          <Title order={1}>Verify Report</Title>
          <Text c="dimmed" maw={560}>
            Enter the verification code printed on your report to confirm it was issued by our laboratory.
          </Text>
        </Stack>

        <Card
          withBorder
          radius="md"
          padding="lg"
          component="form"
          onSubmit={onSubmit}
          aria-label="Verify a report code"
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Verification Code"
              name="code"
              placeholder="e.g. ABCD2345"
              value={code}
              // Codes hold no spaces: pasted blanks go as they are typed (docs/product/screens.md).
              onChange={(e) => setCode(e.currentTarget.value.replace(/\s+/g, '').toUpperCase())}
              classNames={{ input: 'code-input' }}
              maxLength={32}
              autoComplete="off"
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button
              type="submit"
              disabled={!code.trim() || verification.isFetching}
              leftSection={<IconFileSearch size={16} aria-hidden="true" />}
            >
              {verification.isFetching ? 'Verifying...' : 'Verify Report'}
            </Button>
          </Group>
        </Card>

        {failed ? (
          <Alert
            color="red"
            role="alert"
            title={failed.boxTitle}
            icon={<IconAlertTriangle aria-hidden="true" />}
          >
            {failed.text}
          </Alert>
        ) : null}

        {result ? (
          <Suspense fallback={null}>
            <VerifyResult report={result} />
          </Suspense>
        ) : null}
        <CredentialCheck />
        <TrustTheSignature />
      </Stack>
    </Container>
  );
}
