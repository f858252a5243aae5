import { Badge, Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { VerificationResponse } from '../../../../common/contracts/verification';
import {
  dateInWords,
  formatMajorRange,
  gradeLabel,
  valueTypeLabel,
  verdictLabel,
} from '../../../../common/domain/valuation';
import { inspectionLabel } from '../../../../common/domain/appraisal';
import { IdentificationList, statedFields, VERDICT_COLOR } from '../../../components/ReportParts';

/**
 * What a valuation report states, as public verification shows it: an appraisal's intended use and
 * inspection, identification, the verdict and grade, the report's photos — and the value only when
 * the page was opened through the owner's share link (docs/product/valuation-report.md,
 * appraisal-report.md). Never a comparable, a price or a tax detail: the answer carries none.
 */
export function ReportVerdicts({ report }: { report: VerificationResponse }) {
  const id = report.identification;
  const fields = statedFields(id);
  const v = report.valuation;
  const a = report.assignment;
  if (!fields.length && !report.authenticity && !report.condition && !report.photos.length && !v && !a)
    return null;
  return (
    <Stack gap="md">
      {a ? (
        <div>
          <Title order={3} size="h4" mb="sm">
            Appraisal
          </Title>
          <Stack gap="xs">
            <div>
              <Text size="sm" c="dimmed">
                Intended use
              </Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {a.intendedUse}
              </Text>
            </div>
            <div>
              <Text size="sm" c="dimmed">
                Inspection
              </Text>
              <Text size="sm">{inspectionLabel(a.inspection)}</Text>
            </div>
          </Stack>
        </div>
      ) : null}
      {report.authenticity || report.condition ? (
        <div>
          <Title order={3} size="h4" mb="sm">
            Opinion
          </Title>
          <Group gap="xl">
            {report.authenticity ? (
              <Stack gap={2}>
                <Text size="sm" c="dimmed">
                  Authenticity
                </Text>
                <Badge size="lg" color={VERDICT_COLOR[report.authenticity.verdict] ?? 'gray'}>
                  {verdictLabel(report.authenticity.verdict)}
                </Badge>
              </Stack>
            ) : null}
            {report.condition ? (
              <Stack gap={2}>
                <Text size="sm" c="dimmed">
                  Condition
                </Text>
                <Badge size="lg" variant="light">
                  {gradeLabel(report.condition.grade)}
                </Badge>
              </Stack>
            ) : null}
          </Group>
        </div>
      ) : null}

      {v ? (
        <Card withBorder radius="md" padding="md" aria-labelledby="shared-value-title">
          <Title order={3} size="h4" id="shared-value-title">
            Valuation (shared by the owner)
          </Title>
          <Text size="xl" fw={700} mt={4}>
            {formatMajorRange(v)}
          </Text>
          <Text size="sm">
            {valueTypeLabel(v.valueType)} in {v.currency}, as at {dateInWords(v.effectiveDate)}.
          </Text>
        </Card>
      ) : null}

      {fields.length ? (
        <div>
          <Title order={3} size="h4" mb="sm">
            Identification
          </Title>
          <IdentificationList identification={id} />
        </div>
      ) : null}

      {report.photos.length ? (
        <div>
          <Title order={3} size="h4" mb="sm">
            Photographs
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
            {report.photos.map((p, i) => (
              <Image
                key={p.url}
                src={p.url}
                alt={`Photo ${i + 1} of the report on ${report.itemName}`}
                radius="sm"
                h={160}
                fit="contain"
                bg="gray.1"
              />
            ))}
          </SimpleGrid>
        </div>
      ) : null}
    </Stack>
  );
}
