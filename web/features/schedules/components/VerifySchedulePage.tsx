import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Stack,
  Paper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title';
import { scheduleVerificationQuery, VerifyScheduleError } from '../verify-api';

/** A code as typed: trimmed and upper-cased (the server does the same). */
const normalizeCode = (code: string) => code.trim().toUpperCase();
/** A day as the verification page shows it. */
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * /verify-schedule?code=CODE (public, docs/product/schedules.md): whether a schedule is genuine, with
 * its items and their report codes; never a value. Each report code opens that report's verification.
 */
export function VerifySchedulePage() {
  usePageTitle('Verify Schedule', 'Check a schedule of valuations issued by the laboratory.');
  const [params, setParams] = useSearchParams();
  const code = normalizeCode(params.get('code') ?? '');
  const [typed, setTyped] = useState(code);
  const query = useQuery({ ...scheduleVerificationQuery(code), enabled: code.length > 0 });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = normalizeCode(typed);
    if (next) setParams({ code: next });
  };
  const v = query.data;
  return (
    <Container size="md" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1}>Verify Schedule</Title>
          <Text c="dimmed">
            Enter the code printed on a schedule of valuations to check that the laboratory issued it.
          </Text>
        </div>
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Schedule code"
              name="code"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              maxLength={20}
              style={{ flex: '1 1 200px' }}
            />
            <Button type="submit">Verify</Button>
          </Group>
        </form>
        {code && query.isPending && (
          <Text role="status" size="sm">
            Verifying...
          </Text>
        )}
        {query.isError && (
          <Alert
            color="red"
            title={
              query.error instanceof VerifyScheduleError && query.error.status === 404
                ? 'Schedule not found'
                : 'Error'
            }
            role="alert"
          >
            {query.error instanceof VerifyScheduleError && query.error.status === 404
              ? 'No schedule with this code was issued by the laboratory. Check the code and try again.'
              : query.error instanceof VerifyScheduleError
                ? query.error.message
                : 'The schedule could not be verified.'}
          </Alert>
        )}
        {v && (
          <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="verified-title">
            <Stack gap="sm">
              <Group gap="sm" wrap="wrap">
                <Title order={2} size="h3" id="verified-title">
                  Schedule {v.scheduleCode}
                </Title>
                <Badge color={v.superseded ? 'yellow' : 'teal'} variant="filled">
                  {v.superseded ? 'Replaced' : 'Authentic'}
                </Badge>
              </Group>
              <Text size="sm">
                Issued by {v.labName} on {day(v.issuedAt)} · {v.itemCount} item
                {v.itemCount === 1 ? '' : 's'}
              </Text>
              {v.superseded && (
                <Alert color="yellow" variant="light">
                  A newer schedule of the same collection replaced this one on {day(v.superseded.issuedAt)}:{' '}
                  <Anchor component={Link} to={`/verify-schedule?code=${v.superseded.scheduleCode}`}>
                    {v.superseded.scheduleCode}
                  </Anchor>
                  .
                </Alert>
              )}
              <Text size="sm" c="dimmed">
                Values are not shown here. Each item's report can be verified by its code; its owner may share
                the report's value with a link.
              </Text>
              <Stack
                component="ul"
                gap="xs"
                aria-label="Items of the schedule"
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {v.items.map((i) => (
                  <Paper
                    component="li"
                    key={i.displayId}
                    withBorder
                    radius="sm"
                    p="sm"
                    data-report-code={i.reportCode}
                  >
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <div>
                        <Text fw={600}>{i.itemName}</Text>
                        <Text size="sm" c="dimmed">
                          {i.displayId} · {i.category}
                        </Text>
                      </div>
                      <Group gap={6} wrap="wrap">
                        <Text size="sm">Report</Text>
                        <Anchor component={Link} to={`/verify-report?code=${i.reportCode}`} ff="monospace">
                          {i.reportCode}
                        </Anchor>
                        {i.reportStatus === 'revoked' && (
                          <Badge color="red" variant="light">
                            Withdrawn
                          </Badge>
                        )}
                      </Group>
                    </Group>
                  </Paper>
                ))}
              </Stack>
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
