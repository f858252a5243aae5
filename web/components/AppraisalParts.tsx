import { Anchor, Stack, Table, Text } from '@mantine/core';
import type { ReportContent } from '../../common/contracts/reports';
import type { SampleFile } from '../../common/contracts/samples';
import { inspectionLabel, propertyInterestLabel, TAX_STATEMENT } from '../../common/domain/appraisal';
import { formatMajorRange, dateInWords } from '../../common/domain/valuation';
import { ReportPart } from './ReportParts';
import { RichParagraphs } from './RichParagraphs';

// The appraisal's parts as the PDF states them (docs/product/appraisal-report.md): the assignment,
// the comparable sales (each price in its own currency), the re-valuation date and, for a charitable
// donation, the tax statement and details. Shown to the owner on the sample page and to the second
// reviewer; never on the public verification page.

function Term({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      {typeof children === 'string' ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {children}
        </Text>
      ) : (
        children
      )}
    </div>
  );
}

const money = (amount: number, currency: string) => formatMajorRange({ high: amount, currency });

type PartProps = { report: ReportContent; headingOrder?: 3 | 4 };

/** For whom and for what the value was made: the PDF's cover block states it first. */
export function AssignmentPart({ report, headingOrder = 3 }: PartProps) {
  const a = report.assignment;
  if (!a) return null;
  return (
    <ReportPart title="Assignment" order={headingOrder}>
      <Stack gap="xs">
        <Term label="Intended use">{a.intendedUse}</Term>
        <Term label="Intended users">{a.intendedUsers}</Term>
        <Term label="Property interest">
          {a.propertyInterest === 'other' && a.propertyInterestOther
            ? a.propertyInterestOther
            : propertyInterestLabel(a.propertyInterest)}
        </Term>
        <Term label="Inspection">{`${inspectionLabel(a.inspection)}, ${dateInWords(a.inspectionDate)}`}</Term>
      </Stack>
    </ReportPart>
  );
}

/** The definition of the value type used, with its source. */
export function ValueDefinitionPart({ report, headingOrder = 3 }: PartProps) {
  const a = report.assignment;
  if (!a) return null;
  return (
    <ReportPart title="Definition of value" order={headingOrder}>
      <RichParagraphs html={a.valueDefinition} />
    </ReportPart>
  );
}

/** The comparable sales, each price in the currency of its sale. */
export function ComparablesPart({ report, files, headingOrder = 3 }: PartProps & { files: SampleFile[] }) {
  if (!report.comparables.length) return null;
  const photoName = (id: number | null) => files.find((f) => f.id === id)?.originalName ?? null;
  return (
    <ReportPart title="Comparable sales" order={headingOrder}>
      <Table.ScrollContainer minWidth={560}>
        <Table striped withTableBorder aria-label="Comparable sales">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sale date</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th>Price</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.comparables.map((c, i) => (
              <Table.Tr key={i}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateInWords(c.saleDate)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{c.description}</Text>
                  {c.notes ? (
                    <Text size="xs" c="gray.7">
                      {c.notes}
                    </Text>
                  ) : null}
                  {photoName(c.photoFileId) ? (
                    <Text size="xs" c="gray.7">
                      Photo: {photoName(c.photoFileId)}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  {c.lotUrl ? (
                    <Anchor href={c.lotUrl} target="_blank" rel="noopener noreferrer" size="sm">
                      {c.source}
                    </Anchor>
                  ) : (
                    c.source
                  )}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{money(c.price, c.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="gray.7" mt={4}>
        Each price is given in the currency the sale was made in; none is converted.
      </Text>
    </ReportPart>
  );
}

/** What was researched, and the assumptions and conditions the value rests on. */
export function ScopeAndConditionsPart({ report, headingOrder = 3 }: PartProps) {
  const a = report.assignment;
  if (!a) return null;
  return (
    <ReportPart title="Scope of work, assumptions and conditions" order={headingOrder}>
      <Stack gap="xs">
        <Term label="Scope of work">
          <RichParagraphs html={a.scopeOfWork} />
        </Term>
        {a.extraordinaryAssumptions ? (
          <Term label="Extraordinary assumptions">
            <RichParagraphs html={a.extraordinaryAssumptions} />
          </Term>
        ) : null}
        {a.hypotheticalConditions ? (
          <Term label="Hypothetical conditions">
            <RichParagraphs html={a.hypotheticalConditions} />
          </Term>
        ) : null}
        <Term label="Limiting conditions">
          <RichParagraphs html={a.limitingConditions} />
        </Term>
      </Stack>
    </ReportPart>
  );
}

/** The re-valuation date, then, for a charitable donation, the tax statement and details. */
export function RevaluationAndTaxPart({ report, headingOrder = 3 }: PartProps) {
  const t = report.taxAppraisal;
  const v = report.valuation;
  return (
    <>
      {report.revalueBy ? (
        <ReportPart title="Re-valuation" order={headingOrder}>
          <Text size="sm">We recommend having the item valued again by {dateInWords(report.revalueBy)}.</Text>
        </ReportPart>
      ) : null}
      {t ? (
        <ReportPart title="Tax appraisal" order={headingOrder}>
          <Stack gap="xs">
            <Text size="sm">{TAX_STATEMENT}</Text>
            <Term label="Donee">{t.donee}</Term>
            <Term label="Contribution date">{dateInWords(t.contributionDate)}</Term>
            {t.dateAcquired ? <Term label="Date acquired">{dateInWords(t.dateAcquired)}</Term> : null}
            <Term label="How acquired">{t.howAcquired}</Term>
            {t.costBasis !== null && v ? (
              <Term label="Cost basis">{money(t.costBasis, v.currency)}</Term>
            ) : null}
            <Term label="Appraiser's taxpayer identification number">{t.appraiserTaxId}</Term>
          </Stack>
        </ReportPart>
      ) : null}
    </>
  );
}

/** The Certification, last as in the PDF: the lab's text and each signatory's qualifications. */
export function CertificationPart({ report, headingOrder = 3 }: PartProps) {
  const c = report.certification;
  if (!c) return null;
  return (
    <ReportPart title="Certification" order={headingOrder}>
      <Stack gap="xs">
        <RichParagraphs html={c.text} />
        {c.signatories.map((p) => (
          <Term key={p.role} label={`Qualifications of ${p.name} (${p.role})`}>
            {p.qualifications ? (
              <RichParagraphs html={p.qualifications} />
            ) : (
              'No qualifications are on record for this signatory.'
            )}
          </Term>
        ))}
      </Stack>
    </ReportPart>
  );
}

/** Every appraisal part in the PDF's order, for the second reviewer's panel. */
export function AppraisalParts({
  report,
  files,
  headingOrder = 3,
}: {
  report: ReportContent;
  files: SampleFile[];
  headingOrder?: 3 | 4;
}) {
  if (!report.assignment && !report.comparables.length && !report.taxAppraisal) return null;
  return (
    <>
      <AssignmentPart report={report} headingOrder={headingOrder} />
      <ValueDefinitionPart report={report} headingOrder={headingOrder} />
      <ComparablesPart report={report} files={files} headingOrder={headingOrder} />
      <ScopeAndConditionsPart report={report} headingOrder={headingOrder} />
      <RevaluationAndTaxPart report={report} headingOrder={headingOrder} />
      <CertificationPart report={report} headingOrder={headingOrder} />
    </>
  );
}
