import {
  Alert,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconLink, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ShareLink, VERIFICATION_LOG_PAGE_SIZE } from '../../../../common/contracts/share-links';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadError, RowsSkeleton } from '../../../components/DataState';
import { ResponsiveTable } from '../../../components/ResponsiveTable';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { shareLinksQuery, useCreateShareLink, useRevokeShareLink, verificationLogQuery } from '../api';

// The owner's control over who sees the value, and who looked (docs/product/valuation-report.md).

const EXPIRY_CHOICES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];

function linkState(link: ShareLink): { label: string; color: string } {
  if (link.revokedAt) return { label: 'Revoked', color: 'red' };
  if (!link.active) return { label: 'Expired', color: 'gray' };
  return { label: 'Active', color: 'teal' };
}

/** Copies a link to the clipboard. */
function CopyLinkButton({ url, label }: { url: string; label: string | null }) {
  return (
    <CopyButton value={url} timeout={2500}>
      {({ copied, copy }) => (
        <Button
          size="xs"
          variant="light"
          leftSection={
            copied ? <IconCheck size={14} aria-hidden="true" /> : <IconCopy size={14} aria-hidden="true" />
          }
          onClick={copy}
          aria-label={`${copied ? 'Copied' : 'Copy'} link${label ? ` for ${label}` : ''}`}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * The link just made, shown this once: the lab keeps only a hash of its token, so it cannot show the
 * link again (docs/product/valuation-report.md).
 */
function NewLink({ link, onDone }: { link: ShareLink; onDone: () => void }) {
  if (!link.url) return null;
  return (
    <Alert color="teal" title="Your new share link" role="status">
      <Text size="sm" mb="xs">
        Copy it now and send it to whoever should see the value: for your security it is shown only this once.
      </Text>
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="new-share-link">
        {link.url}
      </Text>
      <Group gap="xs" mt="sm">
        <CopyLinkButton url={link.url} label={link.label} />
        <Button size="xs" variant="subtle" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Alert>
  );
}

function CreateLinkForm({ sampleId }: { sampleId: number }) {
  const [days, setDays] = useState<string>('30');
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<ShareLink | null>(null);
  const create = useCreateShareLink(sampleId);
  const submit = () =>
    create.mutate(
      { expiresInDays: Number(days), label: label.trim() || null },
      {
        onSuccess: (link) => {
          toast.success('Share link created', 'Copy it now: it is shown only once.');
          setMade(link);
          setLabel('');
        },
        onError: (err) => toast.error('Error', errorMessage(err, 'Failed to create the share link')),
      },
    );
  return (
    <Stack gap="sm">
      {made && <NewLink link={made} onDone={() => setMade(null)} />}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="For whom (optional)"
          placeholder="Insurer, buyer, auction house…"
          value={label}
          maxLength={255}
          onChange={(e) => setLabel(e.currentTarget.value)}
          style={{ flex: '1 1 14rem' }}
        />
        <Select
          label="Expires after"
          data={EXPIRY_CHOICES}
          value={days}
          onChange={(v) => setDays(v ?? '30')}
          allowDeselect={false}
          w={140}
        />
        <Button
          leftSection={<IconLink size={16} aria-hidden="true" />}
          loading={create.isPending}
          onClick={submit}
        >
          Create share link
        </Button>
      </Group>
    </Stack>
  );
}

function LinkActions({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  if (!link.active) return null;
  return (
    <Group gap="xs" wrap="nowrap">
      {link.url && <CopyLinkButton url={link.url} label={link.label} />}
      <Button
        size="xs"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden="true" />}
        onClick={onRevoke}
        aria-label={`Revoke link${link.label ? ` for ${link.label}` : ''}`}
      >
        Revoke
      </Button>
    </Group>
  );
}

function RevokeLinkDialog({
  sampleId,
  link,
  onClose,
}: {
  sampleId: number;
  link: ShareLink | null;
  onClose: () => void;
}) {
  const revoke = useRevokeShareLink(sampleId);
  const confirm = () => {
    if (!link) return;
    revoke.mutate(link.id, {
      onSuccess: () => {
        toast.success('Share link revoked', 'Opening it no longer shows the value.');
        onClose();
      },
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to revoke the share link')),
    });
  };
  return (
    <ConfirmDialog
      opened={link !== null}
      onClose={onClose}
      title="Revoke share link"
      centered={false}
      confirmLabel="Revoke link"
      loading={revoke.isPending}
      onConfirm={confirm}
    >
      Whoever has the link{link?.label ? ` for ${link.label}` : ''} will no longer see the value. The report
      itself can still be verified with its code.
    </ConfirmDialog>
  );
}

/** Share links: create one with an expiry, copy it, revoke it. */
export function ShareLinksCard({ sampleId }: { sampleId: number }) {
  const links = useQuery(shareLinksQuery(sampleId));
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  return (
    <Card withBorder radius="md" padding="lg" mb="lg" component="section" aria-labelledby="share-links-title">
      <Title order={2} size="h4" id="share-links-title">
        Share links
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Anyone can verify your report with its code, but only a share link shows the value. Create one for an
        insurer, a buyer or an auction house; it stops working when it expires or you revoke it.
      </Text>
      <Stack gap="md">
        <CreateLinkForm sampleId={sampleId} />
        {links.isPending ? (
          <RowsSkeleton label="Loading share links..." rows={2} height={32} />
        ) : links.isError ? (
          <LoadError onRetry={() => links.refetch()} retrying={links.isFetching}>
            {errorMessage(links.error, 'Failed to load the share links')}
          </LoadError>
        ) : links.data.length === 0 ? (
          <Text c="dimmed">No share links yet.</Text>
        ) : (
          <ResponsiveTable minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>For</Table.Th>
                  <Table.Th>Link</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {links.data.map((link) => {
                  const state = linkState(link);
                  return (
                    <Table.Tr key={link.id} data-testid="share-link-row">
                      <Table.Td data-label="For">
                        {link.label ?? (
                          <Text span c="dimmed">
                            No label
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label="Link">
                        <Text span size="sm" ff="monospace" aria-label={`Link ending in ${link.hint}`}>
                          …{link.hint}
                        </Text>
                      </Table.Td>
                      <Table.Td data-label="Expires">{formatDateTime(link.expiresAt)}</Table.Td>
                      <Table.Td data-label="State">
                        <Badge color={state.color} variant="light">
                          {state.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td data-label="Actions">
                        <LinkActions link={link} onRevoke={() => setRevoking(link)} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ResponsiveTable>
        )}
      </Stack>
      <RevokeLinkDialog sampleId={sampleId} link={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

const RESULT_LABEL: Record<string, string> = {
  authentic: 'Verified',
  revoked: 'Shown as withdrawn',
  document_current: 'Document checked: current',
  document_superseded: 'Document checked: superseded',
  document_unknown: 'Document checked: not from this report',
};

/** "Who looked at my report": the public verification log, newest first, paged. */
export function VerificationLogCard({ sampleId }: { sampleId: number }) {
  const [page, setPage] = useState(1);
  const log = useQuery(verificationLogQuery(sampleId, page));
  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / VERIFICATION_LOG_PAGE_SIZE));
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      mb="lg"
      component="section"
      aria-labelledby="verification-log-title"
    >
      <Title order={2} size="h4" id="verification-log-title">
        Who looked at my report
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Every public verification of your report, newest first. Visitors are shown by their network only,
        never their address.
      </Text>
      {log.isPending ? (
        <RowsSkeleton label="Loading verifications..." rows={3} height={28} />
      ) : log.isError ? (
        <LoadError onRetry={() => log.refetch()} retrying={log.isFetching}>
          {errorMessage(log.error, 'Failed to load the verification log')}
        </LoadError>
      ) : log.data.rows.length === 0 ? (
        <Alert color="gray" variant="light">
          Nobody has verified this report yet.
        </Alert>
      ) : (
        <Stack gap="sm">
          <ResponsiveTable minWidth={520}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Result</Table.Th>
                  <Table.Th>Through</Table.Th>
                  <Table.Th>Network</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data.rows.map((row) => (
                  <Table.Tr key={row.id} data-testid="verification-row">
                    <Table.Td data-label="When">{formatDateTime(row.at)}</Table.Td>
                    <Table.Td data-label="Result">{RESULT_LABEL[row.result] ?? row.result}</Table.Td>
                    <Table.Td data-label="Through">
                      {row.shareLinkId
                        ? `Share link${row.shareLinkLabel ? `: ${row.shareLinkLabel}` : ''}`
                        : 'Report code'}
                    </Table.Td>
                    <Table.Td data-label="Network" ff="monospace">
                      {row.network ?? '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ResponsiveTable>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              size="sm"
              getControlProps={(c) => ({ 'aria-label': `${c} page` })}
            />
          ) : null}
        </Stack>
      )}
    </Card>
  );
}
