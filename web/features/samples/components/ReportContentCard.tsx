import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReportContent } from '../../../../common/contracts/reports';
import type { SampleFile } from '../../../../common/contracts/samples';
import {
  dateInWords,
  formatMajorRange,
  gradeLabel,
  valueTypeLabel,
  verdictLabel,
} from '../../../../common/domain/valuation';
import { IdentificationList, statedFields, VERDICT_COLOR } from '../../../components/ReportParts';
import { ProtectedPhoto } from '../../../components/ProtectedPhoto';
import {
  AssignmentPart,
  CertificationPart,
  ComparablesPart,
  RevaluationAndTaxPart,
  ScopeAndConditionsPart,
  ValueDefinitionPart,
} from '../../../components/AppraisalParts';
import { RichParagraphs } from '../../../components/RichParagraphs';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </div>
  );
}

/**
 * What the issued report states, in the PDF's order: the assignment, identification, photographs,
 * opinion, valuation and its definition, comparables, summary, scope and conditions, re-valuation,
 * tax details and the certification (docs/product/valuation-report.md, appraisal-report.md). Only
 * the owner and the lab receive it.
 */
export function ReportContentCard({ report, files }: { report: ReportContent; files: SampleFile[] }) {
  const id = report.identification;
  const fields = statedFields(id);
  const photos = report.photoIds
    .map((pid) => files.find((f) => f.id === pid))
    .filter((f): f is SampleFile => Boolean(f));
  const v = report.valuation;
  const { authenticity, condition } = report;
  if (!fields.length && !photos.length && !authenticity && !condition && !v && !report.summary) return null;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      mb="lg"
      component="section"
      aria-labelledby="report-content-title"
    >
      <Title order={2} size="h4" id="report-content-title" mb="md">
        What the report states
      </Title>
      <Stack gap="lg">
        <AssignmentPart report={report} />

        {fields.length ? (
          <Section title="Identification">
            <IdentificationList identification={id} />
          </Section>
        ) : null}

        {photos.length ? (
          <Section title="Photographs">
            <SimpleGrid
              cols={{ base: 2, sm: 3 }}
              spacing="sm"
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {photos.map((p, i) => (
                <li key={p.id}>
                  <ProtectedPhoto
                    url={p.displayUrl ?? p.thumbnailUrl}
                    processing={p.processing}
                    alt={`Photo ${i + 1}: ${p.originalName}`}
                    width="100%"
                    height={160}
                    fit="contain"
                  />
                  <Text size="xs" truncate="end" mt={4} title={p.originalName}>
                    Photo {i + 1}: {p.originalName}
                  </Text>
                </li>
              ))}
            </SimpleGrid>
          </Section>
        ) : null}

        {authenticity || condition ? (
          <Section title="Opinion">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {authenticity ? (
                <Stack gap={6}>
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      Authenticity
                    </Text>
                    <Badge color={VERDICT_COLOR[authenticity.verdict] ?? 'gray'}>
                      {verdictLabel(authenticity.verdict)}
                    </Badge>
                  </Group>
                  <RichParagraphs html={authenticity.rationale} />
                </Stack>
              ) : null}
              {condition ? (
                <Stack gap={6}>
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      Condition
                    </Text>
                    <Badge variant="light">{gradeLabel(condition.grade)}</Badge>
                  </Group>
                  <RichParagraphs html={condition.notes} />
                </Stack>
              ) : null}
            </SimpleGrid>
          </Section>
        ) : null}

        {v ? (
          <Section title="Valuation">
            <Text size="xl" fw={700}>
              {formatMajorRange(v)}
            </Text>
            <Text size="sm">
              {valueTypeLabel(v.valueType)} in {v.currency}, as at {dateInWords(v.effectiveDate)}.
            </Text>
            {v.basis ? (
              <Stack gap={4} mt="xs">
                <Text size="sm" c="dimmed">
                  Basis of valuation
                </Text>
                <RichParagraphs html={v.basis} />
              </Stack>
            ) : null}
          </Section>
        ) : null}

        <ValueDefinitionPart report={report} />
        <ComparablesPart report={report} files={files} />

        {report.summary ? (
          <Section title="Summary">
            <RichParagraphs html={report.summary} />
          </Section>
        ) : null}

        <ScopeAndConditionsPart report={report} />
        <RevaluationAndTaxPart report={report} />
        <CertificationPart report={report} />
      </Stack>
    </Card>
  );
}
