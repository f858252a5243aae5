import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { ReportContent } from '../../common/contracts/reports';
import type { SampleFile } from '../../common/contracts/samples';
import {
  dateInWords,
  formatMajorRange,
  gradeLabel,
  valueTypeLabel,
  verdictLabel,
} from '../../common/domain/valuation';
import { IdentificationList, ReportPart, statedFields, VERDICT_COLOR } from './ReportParts';
import { ProtectedPhoto } from './ProtectedPhoto';
import {
  AssignmentPart,
  CertificationPart,
  ComparablesPart,
  RevaluationAndTaxPart,
  ScopeAndConditionsPart,
  ValueDefinitionPart,
} from './AppraisalParts';
import { ElementsTable } from './ElementsTable';
import { RichParagraphs } from './RichParagraphs';

/** A report that states nothing but its element table (an assay-only report). */
const NOTHING_STATED: ReportContent = {
  valuation: null,
  authenticity: null,
  condition: null,
  identification: null,
  summary: null,
  photoIds: [],
  assignment: null,
  comparables: [],
  revalueBy: null,
  taxAppraisal: null,
  certification: null,
};

/** An element of the report's table, with its notes. */
type ElementRow = {
  element: string;
  percentage: number;
  purity: string | null;
  quality: string | null;
  notes: string | null;
};

/** Whether a report states anything at all apart from its element table. */
export function statesAnything(report: ReportContent | null): report is ReportContent {
  if (!report) return false;
  return Boolean(
    statedFields(report.identification).length ||
    report.photoIds.length ||
    report.authenticity ||
    report.condition ||
    report.valuation ||
    report.summary,
  );
}

/**
 * What the issued report states, in the PDF's order: the assignment, identification, photographs,
 * opinion, valuation and its definition, comparables, the analysis table, summary, scope and conditions, re-valuation,
 * tax details and the certification (docs/product/valuation-report.md, appraisal-report.md). Only
 * the owner and the lab receive it.
 */
export function ReportContentCard({
  report,
  files,
  elements = [],
}: {
  report: ReportContent | null;
  files: SampleFile[];
  elements?: readonly ElementRow[];
}) {
  const titleId = useId();
  if (!statesAnything(report) && !elements.length) return null;
  return (
    <Card withBorder radius="md" padding="lg" mb="lg" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="md">
        What the report states
      </Title>
      <ReportStatements report={report} files={files} elements={elements} />
    </Card>
  );
}

/**
 * A report's statements in the PDF's order, without a card: the owner's and lab's sample page, and
 * the second reviewer's reading of a draft (its parts' headings at `headingOrder`).
 */
export function ReportStatements({
  report: stated,
  files,
  elements = [],
  headingOrder = 3,
}: {
  report: ReportContent | null;
  files: SampleFile[];
  /** The Analysis Results, where the PDF prints them (after the comparables). */
  elements?: readonly ElementRow[];
  headingOrder?: 3 | 4;
}) {
  const order = headingOrder;
  const report = stated ?? NOTHING_STATED;
  const id = report.identification;
  const fields = statedFields(id);
  const photos = report.photoIds
    .map((pid) => files.find((f) => f.id === pid))
    .filter((f): f is SampleFile => Boolean(f));
  const v = report.valuation;
  const { authenticity, condition } = report;
  return (
    <Stack gap="lg">
      <AssignmentPart report={report} headingOrder={order} />

      {fields.length ? (
        <ReportPart order={order} title="Identification">
          <IdentificationList identification={id} />
        </ReportPart>
      ) : null}

      {photos.length ? (
        <ReportPart order={order} title="Photographs">
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
        </ReportPart>
      ) : null}

      {authenticity || condition ? (
        <ReportPart order={order} title="Opinion">
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
        </ReportPart>
      ) : null}

      {v ? (
        <ReportPart order={order} title="Valuation">
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
        </ReportPart>
      ) : null}

      <ValueDefinitionPart report={report} headingOrder={order} />
      <ComparablesPart report={report} files={files} headingOrder={order} />

      {elements.length ? (
        <ReportPart order={order} title="Analysis Results">
          <ElementsTable
            rows={elements}
            minWidth={560}
            cards
            extraColumns={[
              {
                header: 'Notes',
                cell: (e) => (e.notes ? <RichParagraphs html={e.notes} /> : '—'),
              },
            ]}
          />
        </ReportPart>
      ) : null}

      {report.summary ? (
        <ReportPart order={order} title="Summary">
          <RichParagraphs html={report.summary} />
        </ReportPart>
      ) : null}

      <ScopeAndConditionsPart report={report} headingOrder={order} />
      <RevaluationAndTaxPart report={report} headingOrder={order} />
      <CertificationPart report={report} headingOrder={order} />
    </Stack>
  );
}
