import type { ComparableContent } from '../../../common/contracts/appraisal';
import { inspectionLabel, propertyInterestLabel, TAX_STATEMENT } from '../../../common/domain/appraisal';
import { formatMoney } from '../../../common/domain/money';
import { dateInWords, valueTypeLabel } from '../../../common/domain/valuation';
import { renderNotes } from './notes-pdf';
import {
  artifact,
  BAND,
  container,
  drawTableHead,
  INK,
  longDate,
  MUTED,
  rule,
  tag,
  tableRow,
} from '../../pdf/kit';
import { type Ctx, drawPairs, heading, paragraphBlocks, richPart } from './report-pdf';

// The appraisal's sections of the report PDF (docs/product/appraisal-report.md): the cover block,
// the definition of value, the comparables table, scope, assumptions and conditions, the tax
// statement and the certification. Each draws only when the report is an appraisal (it has an
// assignment), so an assay-only or older report looks exactly as before.

/** For whom, for what, which value and when: the first thing an insurer or a court reads. */
export function appraisalCoverSection(ctx: Ctx) {
  const { input, doc } = ctx;
  const a = input.content?.assignment;
  const v = input.content?.valuation;
  if (!a || !v) return;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Appraisal');
  drawPairs(ctx, sect, [
    ['Client', input.sample.ownerName, true],
    ['Value type', valueTypeLabel(v.valueType)],
    ['Intended use', a.intendedUse],
    ['Effective date', dateInWords(v.effectiveDate)],
    ['Intended users', a.intendedUsers],
    ['Report date', longDate(input.issuedAt)],
  ]);
  sect.end();
  doc.y += 4;
}

/** The definition of the value stated, with its source, right under the value. */
export function valueDefinitionSection(ctx: Ctx) {
  const a = ctx.input.content?.assignment;
  if (!a || !ctx.input.content?.valuation) return;
  const sect = container(ctx.doc, ctx.root, 'Sect');
  richPart(ctx, sect, 'Definition of value', a.valueDefinition);
  sect.end();
  ctx.doc.y += 4;
}

const COMPARABLE_COLUMNS = [
  { title: 'No.', width: 0.06, align: 'left' as const },
  { title: 'Sale date', width: 0.15, align: 'left' as const },
  { title: 'Description', width: 0.38, align: 'left' as const },
  { title: 'Source', width: 0.22, align: 'left' as const },
  { title: 'Price', width: 0.19, align: 'right' as const },
];

/** A sale's price in its own currency (minor units at rest), never converted. */
const priceOf = (c: ComparableContent) => formatMoney(c.price, c.currency);

/** The comparable sales as a tagged table; the header row repeats (as an artifact) on a new page. */
export function comparablesSection(ctx: Ctx) {
  const { doc, input, left, width, bottomLimit, root } = ctx;
  const rows = input.content?.comparables ?? [];
  if (!rows.length) return;
  const sect = container(doc, root, 'Sect');
  heading(ctx, sect, 'Comparable Sales', 120);
  tag(doc, sect, 'P', () =>
    doc
      .fillColor(MUTED)
      .font('regular')
      .fontSize(8)
      .text('Each price is stated in the currency the sale was made in; none is converted.', left, doc.y, {
        width,
      }),
  );
  doc.y += 4;
  const table = container(doc, sect, 'Table');
  const pad = 5;
  const colX = (ci: number) =>
    left + COMPARABLE_COLUMNS.slice(0, ci).reduce((sum, c) => sum + c.width * width, 0);
  const colW = (ci: number) => (COMPARABLE_COLUMNS[ci]?.width ?? 0) * width - pad * 2;
  const headText = (ci: number, y: number) => {
    const c = COMPARABLE_COLUMNS[ci];
    if (!c) return;
    doc
      .fillColor('#ffffff')
      .font('bold')
      .fontSize(8)
      .text(c.title.toUpperCase(), colX(ci) + pad, y + 5, { width: colW(ci), align: c.align });
  };
  const drawHead = (repeated: boolean) =>
    drawTableHead(
      doc,
      table,
      ctx,
      18,
      COMPARABLE_COLUMNS.map((_c, ci) => (y: number) => headText(ci, y)),
      repeated,
    );
  drawHead(false);
  rows.forEach((c, i) => {
    const photo = c.photoFileId ? input.photoNames?.get(c.photoFileId) : undefined;
    const details = [c.notes, c.lotUrl ? `Lot: ${c.lotUrl}` : null, photo ? `Photo: ${photo}` : null].filter(
      (t): t is string => Boolean(t),
    );
    const cells: { text: string; small?: string[]; bold?: boolean }[] = [
      { text: String(i + 1) },
      { text: dateInWords(c.saleDate) },
      { text: c.description, small: details, bold: true },
      { text: c.source },
      { text: priceOf(c), bold: true },
    ];
    const cellHeight = (cell: (typeof cells)[number], ci: number) => {
      doc.font(cell.bold ? 'bold' : 'regular').fontSize(8.5);
      let h = doc.heightOfString(cell.text, { width: colW(ci) });
      doc.font('regular').fontSize(7.5);
      for (const s of cell.small ?? []) h += doc.heightOfString(s, { width: colW(ci) }) + 1;
      return h;
    };
    const h = Math.max(...cells.map(cellHeight)) + pad * 2;
    // A row is never split across pages.
    const { y, tr } = tableRow(doc, table, ctx, {
      index: i,
      height: h,
      bottom: bottomLimit(),
      repeatHead: () => drawHead(true),
    });
    cells.forEach((cell, ci) => {
      const col = COMPARABLE_COLUMNS[ci];
      if (!col) return;
      const td = container(doc, tr, 'TD');
      tag(doc, td, 'P', () =>
        doc
          .fillColor(INK)
          .font(cell.bold ? 'bold' : 'regular')
          .fontSize(8.5)
          .text(cell.text, colX(ci) + pad, y + pad, { width: colW(ci), align: col.align }),
      );
      for (const small of cell.small ?? [])
        tag(doc, td, 'P', () =>
          doc
            .fillColor(MUTED)
            .font('regular')
            .fontSize(7.5)
            .text(small, colX(ci) + pad, doc.y + 1, { width: colW(ci) }),
        );
      td.end();
    });
    tr.end();
    doc.y = y + h;
    rule(doc, ctx, doc.y, 0.5);
  });
  table.end();
  sect.end();
  doc.y += 14;
}

/** What was inspected and how, the interest appraised and the research done. */
export function scopeSection(ctx: Ctx) {
  const a = ctx.input.content?.assignment;
  if (!a) return;
  const { doc } = ctx;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Scope of Work', 110);
  drawPairs(ctx, sect, [
    ['Inspection', inspectionLabel(a.inspection)],
    ['Inspected on', dateInWords(a.inspectionDate)],
    [
      'Interest',
      a.propertyInterest === 'other' && a.propertyInterestOther
        ? a.propertyInterestOther
        : propertyInterestLabel(a.propertyInterest),
    ],
  ]);
  richPart(ctx, sect, 'Research and sources', a.scopeOfWork);
  sect.end();
  doc.y += 4;
}

/** Extraordinary assumptions, hypothetical conditions and limiting conditions. */
export function conditionsSection(ctx: Ctx) {
  const a = ctx.input.content?.assignment;
  if (!a) return;
  const sect = container(ctx.doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Assumptions and Conditions');
  // The first part stays with the section's heading.
  const parts = [
    ['Extraordinary assumptions', a.extraordinaryAssumptions],
    ['Hypothetical conditions', a.hypotheticalConditions],
    ['Limiting conditions', a.limitingConditions],
  ].filter((p): p is [string, string] => Boolean(p[1]));
  parts.forEach(([title, html], i) => richPart(ctx, sect, title, html, i > 0));
  sect.end();
  ctx.doc.y += 4;
}

/** For a charitable donation: the income-tax statement and the details the tax rules ask for. */
export function taxSection(ctx: Ctx) {
  const { doc, input, left, width, bottomLimit } = ctx;
  const t = input.content?.taxAppraisal;
  const v = input.content?.valuation;
  if (!t || !v) return;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Appraisal for Income-Tax Purposes', 150);
  doc.font('bold').fontSize(9.5);
  const h = doc.heightOfString(TAX_STATEMENT, { width: width - 20 }) + 16;
  if (doc.y + h > bottomLimit()) doc.addPage();
  const top = doc.y;
  artifact(doc, () => doc.rect(left, top, width, h).fillColor(BAND).fill());
  tag(doc, sect, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(9.5)
      .text(TAX_STATEMENT, left + 10, top + 8, { width: width - 20 }),
  );
  doc.y = top + h + 8;
  drawPairs(ctx, sect, [
    ['Donee', t.donee, true],
    ['Contribution date', dateInWords(t.contributionDate)],
    ['How acquired', t.howAcquired],
    ['Date acquired', t.dateAcquired ? dateInWords(t.dateAcquired) : 'Not known'],
    ['Cost basis', t.costBasis === null ? 'Not stated' : formatMoney(t.costBasis, v.currency)],
    ["Appraiser's taxpayer ID", t.appraiserTaxId],
  ]);
  sect.end();
  doc.y += 4;
}

/**
 * The Certification: the lab's text, then each signatory's qualifications; the signatures and the
 * verification block follow (signOffSection), so the certification is the report's last part.
 */
export function certificationSection(ctx: Ctx) {
  const { doc, input } = ctx;
  if (!input.content?.assignment) return;
  // Like any text, the certification may go on on the next page; the signatures then follow the
  // qualifications, never alone on a page (signOffSection and the report's second pass).
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Certification');
  if (input.certification) {
    doc.x = ctx.left;
    renderNotes(
      doc,
      input.certification,
      { x: ctx.left, width: ctx.width, bottomLimit: ctx.bottomLimit, ...paragraphBlocks(ctx) },
      sect,
    );
    doc.y += 6;
  }
  const reviewer = input.reviewer && input.reviewer !== 'pending' ? input.reviewer : null;
  const people = [
    { role: 'Analyst', person: input.analyst },
    ...(reviewer ? [{ role: 'Reviewer', person: reviewer }] : []),
  ];
  for (const { role, person } of people) {
    if (!person) continue;
    richPart(
      ctx,
      sect,
      `Qualifications of ${person.name} (${role.toLowerCase()})`,
      person.qualifications || '<p>No qualifications are on record for this signatory.</p>',
    );
  }
  sect.end();
  doc.y += 4;
}
