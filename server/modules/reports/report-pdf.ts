import type { ReportContent } from '../../../common/contracts/reports';
import {
  dateInWords,
  formatValueRange,
  gradeLabel,
  IDENTIFICATION_FIELDS,
  valueTypeLabel,
  verdictLabel,
} from '../../../common/domain/valuation';
import { imageFor, type PreparedImage, prepareImage } from '../../pdf/images';
import {
  ACCENT,
  artifact,
  BAND,
  container,
  drawFooters,
  drawH2,
  drawLabHeader,
  drawQr,
  drawTableHead,
  drawTitle,
  INK,
  longDate,
  MARGIN,
  FOOTER_HEIGHT,
  MUTED,
  openTaggedA4,
  rule,
  tableRow,
  tag,
} from '../../pdf/kit';
import { addSignaturePlaceholder } from '../signing/pdf-placeholder';
import { renderNotes } from './notes-pdf';
import {
  appraisalCoverSection,
  certificationSection,
  comparablesSection,
  conditionsSection,
  scopeSection,
  taxSection,
  valueDefinitionSection,
} from './appraisal-pdf';

// The issued report (docs/product/signed-reports.md): rendered once, in-process, A4, every font
// embedded (Noto, so any Latin, Greek or Cyrillic name prints), with page numbers, logo, signature and
// a verification QR code. It is a tagged PDF (PDF/UA-1): every piece of content is either part of the
// structure tree (headings, paragraphs, lists, the analysis table, figures with alternative text) or
// marked as an artifact (rules, bands, repeated table headers, page footers). When `signing` is
// given, the file carries an empty signature for the lab's certificate to fill (see ../signing).
// What it shares with the lab's other PDFs (fonts, colours, header, footer, tagging) is in ../../pdf.

export type ReportPdfInput = {
  lab: {
    name: string;
    address: string;
    phone: string;
    email: string | null;
    certificationNumber: string | null;
    logo: Buffer | null;
  };
  sample: {
    displayId: string;
    itemName: string;
    category: string;
    description: string;
    submissionDate: Date;
    services: string;
    ownerName: string;
  };
  elements: {
    element: string;
    percentage: number;
    purity: string | null;
    quality: string | null;
    notes: string | null;
  }[];
  /** Valuation (amounts in minor units), verdicts, identification and summary (docs/product/valuation-report.md). */
  content?: ReportContent | null;
  /** The report's photos in order: display copies, never originals (docs/product/photos.md). */
  photos?: { image: Buffer; caption: string }[];
  analyst: { name: string; signature: Buffer | null; qualifications?: string | null } | null;
  /**
   * The second expert who approved a reviewed report ("Reviewed By"), or 'pending' for the staff-only
   * draft of a revision still awaiting review; absent when the lab issued it without review.
   */
  reviewer?:
    | { name: string; signature: Buffer | null; reviewedAt: Date; qualifications?: string | null }
    | 'pending'
    | null;
  /** The lab's certification text (rich text), printed before the signatures of an appraisal. */
  certification?: string | null;
  /** Names of the sample's photos by id, for the comparables that show one. */
  photoNames?: Map<number, string>;
  reportCode: string;
  revision: number;
  issuedAt: Date;
  verifyUrl: string;
  /**
   * A staff-only preview: this text is printed in a band at the top of every page and across it as a
   * watermark, and the document title starts with it. Never set for a stored revision.
   */
  draftBand?: string;
  /** Reserve a digital signature: who signs (the certificate's name) and how to reach the lab. */
  signing?: { signerName: string; location: string; contactInfo: string };
};

/** A4's height less the bottom margin and footer: where content must end. */
const PAGE_BOTTOM = 841.89 - MARGIN - FOOTER_HEIGHT;

/** Decodes an image once (throws for one pdfkit cannot read); pdfkit's types omit the method. */
const openImage = (doc: PDFKit.PDFDocument, src: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): Buffer }).openImage(src);

/**
 * The logo or a signature, for `doc.image()`: prepared once per process (../../pdf/images.ts); throws for
 * an image pdfkit cannot read, like openImage.
 */
const openReusedImage = ({ doc, reused }: Ctx, src: Buffer) => imageFor(doc, reused.get(src) ?? null);

/** What every section function draws with. */
export type Ctx = {
  doc: PDFKit.PDFDocument;
  input: ReportPdfInput;
  /** The images every report repeats (logo, signatures), prepared; null for an unreadable one. */
  reused: Map<Buffer, PreparedImage | null>;
  left: number;
  width: number;
  bottomLimit: () => number;
  /** The structure tree's Document element: each section adds its elements here, in reading order. */
  root: PDFKit.PDFStructureElement;
  /** Where blocks began and ended, and the second pass's change (renderReportPdf). */
  layout?: Layout;
};

/**
 * The pagination record of one drawing: each block (a section, a titled part, a paragraph) that
 * began, on which page and how far down, and for a paragraph where it ended; the blocks to start on
 * a new page and the paragraphs to end early (their last lines go over); and, when the sign-off did
 * not fit, the page it had to leave.
 */
type Layout = {
  /** The second pass's instruction: start block i on a new page, or end paragraph i above a line. */
  change: { block: number; breakBefore: true } | { block: number; bottom: number } | null;
  /** Which sign-off was drawn: the full one, or the compact one that fitted where the full did not. */
  signOff: 'full' | 'compact';
  blocks: Block[];
  /** The page the sign-off left because it did not fit, and the room it found there. */
  signOffLeft: { page: number; room: number } | null;
  /** How far down each page its content ended when the next page began (points from the top). */
  pageEnds: number[];
};

type Block = {
  page: number;
  y: number;
  /** False for the first paragraph under a title: it never leaves its title behind. */
  breakable: boolean;
  /** A paragraph's end (page, y) and line height, once drawn. */
  end?: { page: number; y: number; lineHeight: number };
};

const pageIndex = (doc: PDFKit.PDFDocument) => {
  const range = doc.bufferedPageRange();
  return range.start + range.count - 1;
};

/**
 * A block begins here: it is recorded, and starts a new page when the second pass asks for it; for
 * a paragraph, the line it must end above on this page when the second pass cuts it.
 */
export function blockStart({ doc, layout }: Ctx, breakable = true): number | undefined {
  if (!layout) return undefined;
  const index = layout.blocks.length;
  const change = layout.change?.block === index ? layout.change : null;
  if (change && 'breakBefore' in change) doc.addPage();
  layout.blocks.push({ page: pageIndex(doc), y: doc.y, breakable });
  return change && 'bottom' in change ? change.bottom : undefined;
}

/**
 * What renderNotes reports to the pagination record: each paragraph is a block, the first one
 * kept with the title above it.
 */
export function paragraphBlocks(ctx: Ctx) {
  let paragraphs = 0;
  return {
    onBlock: () => blockStart(ctx, paragraphs++ > 0),
    onBlockEnd: (lineHeight: number) => {
      const last = ctx.layout?.blocks.at(-1);
      if (last) last.end = { page: pageIndex(ctx.doc), y: ctx.doc.y, lineHeight };
    },
  };
}

/**
 * The report, section by section, in reading order. A new part of the report is one more function
 * here: it draws from `ctx.doc.y` downwards, adds its structure under `ctx.root`, and leaves `doc.y`
 * below itself.
 */
const SECTIONS: ((ctx: Ctx) => void | Promise<void>)[] = [
  headerSection,
  titleSection,
  appraisalCoverSection,
  detailsSection,
  identificationSection,
  photosSection,
  verdictsSection,
  valueSection,
  valueDefinitionSection,
  comparablesSection,
  analysisSection,
  narrativeSection,
  scopeSection,
  conditionsSection,
  taxSection,
  certificationSection,
  signOffSection,
];

/** A valuation report states a verdict of its own; the assay-only report keeps its old title. */
const isValuation = (input: ReportPdfInput) =>
  Boolean(input.content?.valuation || input.content?.authenticity || input.content?.condition);

export async function renderReportPdf(input: ReportPdfInput): Promise<Buffer> {
  return (await drawPaginated(input)).pdf;
}

/**
 * The report with where its pages end and which sign-off it has (the pagination unit test measures
 * the space left on each page and reads each page's text).
 */
export async function reportPageEnds(input: ReportPdfInput) {
  const { pdf, layout } = await drawPaginated(input);
  return { pdf, pageEnds: layout.pageEnds, bottom: PAGE_BOTTOM, top: MARGIN, signOff: layout.signOff };
}

async function drawPaginated(input: ReportPdfInput): Promise<{ pdf: Buffer; layout: Layout }> {
  const first = await drawReport(input, null);
  const left = first.layout.signOffLeft;
  if (left === null) return first;
  // Not even the compact sign-off fitted under the last text: rather than stand alone on the last
  // page, it takes the last lines of that page with it. The last paragraph ends two lines early
  // (when it keeps two lines of its own on the page), or else the last block that may start a page
  // (not the first paragraph under a title) starts the next one.
  const change = lastLinesOver(first.layout.blocks, left.page);
  const second = change ? await drawReport(input, change) : null;
  return second?.layout.signOffLeft === null ? second : first;
}

/** Which block the second pass changes so that the end of page `page` goes over with the sign-off. */
function lastLinesOver(blocks: Block[], page: number): Layout['change'] {
  const onPage = blocks.map((b, i) => ({ ...b, i })).filter((b) => b.page === page && b.y > MARGIN + 1);
  for (const b of onPage.reverse()) {
    if (b.end && b.end.page === page) {
      const lines = Math.round((b.end.y - b.y) / b.end.lineHeight);
      if (lines >= 4) return { block: b.i, bottom: b.end.y - 2 * b.end.lineHeight + 0.5 };
    }
    if (b.breakable) return { block: b.i, breakBefore: true };
  }
  return null;
}

/** One drawing of the report, with the pagination it ended up with. */
async function drawReport(
  input: ReportPdfInput,
  change: Layout['change'],
): Promise<{ pdf: Buffer; layout: Layout }> {
  const layout: Layout = { change, signOff: 'full', blocks: [], signOffLeft: null, pageEnds: [] };
  const title = `${input.draftBand ? `${input.draftBand}: ` : ''}${isValuation(input) ? 'Valuation Report' : 'Analysis Report'} ${input.reportCode}`;
  const reviewer = input.reviewer && input.reviewer !== 'pending' ? input.reviewer : null;
  const reusedImages = [input.lab.logo, input.analyst?.signature, reviewer?.signature].filter(
    (b): b is Buffer => Boolean(b),
  );
  const reused = new Map(
    await Promise.all(reusedImages.map(async (b) => [b, await prepareImage(b)] as const)),
  );
  const { doc, done, root, left, width } = await openTaggedA4(title, {
    Author: input.lab.name,
    Subject: `${input.sample.displayId} ${input.sample.itemName}`,
    Keywords: `report ${input.reportCode} revision ${input.revision}`,
    CreationDate: input.issuedAt,
  });
  // Every page break (a section's, or text flowing on) records where the page it leaves ended.
  const addPage = doc.addPage.bind(doc);
  doc.addPage = (options) => {
    layout.pageEnds.push(doc.y);
    return addPage(options);
  };
  const ctx: Ctx = {
    doc,
    input,
    reused,
    left,
    width,
    bottomLimit: () => doc.page.height - doc.page.margins.bottom,
    root,
    layout,
  };
  for (const section of SECTIONS) await section(ctx);
  root.end();
  drawFooters(
    doc,
    ctx,
    `${input.lab.name} · Report ${input.reportCode} · Revision ${input.revision}`,
    input.draftBand ? () => drawDraftMarks(doc, input.draftBand ?? '', ctx) : undefined,
  );
  if (input.signing)
    addSignaturePlaceholder(doc, {
      name: input.signing.signerName,
      reason: `Issued report ${input.reportCode}, revision ${input.revision}`,
      location: input.signing.location,
      contactInfo: input.signing.contactInfo,
      signingTime: input.issuedAt,
    });

  doc.end();
  return { pdf: await done, layout };
}

/** Lab identity on the left (logo, name, address), the verification code block on the right. */
function headerSection(ctx: Ctx) {
  const { doc, input, root, reused } = ctx;
  drawLabHeader(doc, root, ctx, {
    lab: input.lab,
    logo: input.lab.logo ? (reused.get(input.lab.logo) ?? null) : undefined,
    centreLogo: true,
    nameGap: true,
    codeLabel: 'VERIFICATION CODE',
    code: input.reportCode,
    lines: [`Revision ${input.revision}`, `Issued ${longDate(input.issuedAt)}`],
  });
}

/** The document's one H1. */
function titleSection({ doc, input, root, left, width }: Ctx) {
  drawTitle(
    doc,
    root,
    { left, width },
    isValuation(input) ? 'Valuation Report' : 'Analysis Report',
    isValuation(input)
      ? 'Certificate of examination, opinion and valuation'
      : 'Certificate of examination and analysis',
  );
}

/** The sample's particulars on a shaded band: a list of label/value pairs. */
function detailsSection(ctx: Ctx) {
  const { doc, input, left, width, root } = ctx;
  const s = input.sample;
  const sect = container(doc, root, 'Sect');
  heading(ctx, sect, 'Sample Details');
  drawPairs(ctx, sect, [
    ['Sample ID', s.displayId],
    ['Submitted', longDate(s.submissionDate)],
    ['Item', s.itemName, true],
    ['Report issued', longDate(input.issuedAt)],
    ['Category', s.category],
    ['Revision', String(input.revision)],
    ['Services', s.services],
    ['Client', s.ownerName],
  ]);
  if (s.description) {
    tag(doc, sect, 'H3', () =>
      doc.fillColor(MUTED).font('regular').fontSize(8).text('DESCRIPTION', left, doc.y, { width }),
    );
    tag(doc, sect, 'P', () =>
      doc
        .fillColor(INK)
        .font('regular')
        .fontSize(9.5)
        .text(s.description, left, doc.y + 2, { width }),
    );
  }
  sect.end();
  doc.y += 14;
}

/** A section heading (H2); starts a new page when fewer than `keep` points are left below it. */
export function heading(ctx: Ctx, parent: PDFKit.PDFStructureElement, text: string, keep = 80) {
  const { doc, left, width, bottomLimit } = ctx;
  blockStart(ctx);
  if (doc.y + keep > bottomLimit()) doc.addPage();
  drawH2(doc, parent, { left, width }, text);
}

/** Label/value pairs, two to a row, on a shaded band sized to its text (a tagged list). */
export function drawPairs(
  { doc, left, width, bottomLimit }: Ctx,
  parent: PDFKit.PDFStructureElement,
  pairs: [label: string, value: string, bold?: boolean][],
) {
  const colW = width / 2;
  const labelW = 78;
  const pad = 10;
  const valueW = colW - labelW - pad * 2;
  doc.font('regular').fontSize(9.5);
  const rows: (typeof pairs)[] = [];
  for (let i = 0; i < pairs.length; i += 2) rows.push(pairs.slice(i, i + 2));
  // Measure values and labels (a long label wraps too) so the band fits its text.
  const heights = rows.map((row) => {
    doc.font('regular').fontSize(9.5);
    const values = row.map(([, v]) => doc.heightOfString(v, { width: valueW }));
    doc.fontSize(8);
    const labels = row.map(([l]) => doc.heightOfString(l.toUpperCase(), { width: labelW }) + 1.5);
    return Math.max(...values, ...labels) + 5;
  });
  const total = heights.reduce((a, b) => a + b, 0) + pad * 2;
  if (doc.y + total > bottomLimit()) doc.addPage();
  const top = doc.y;
  artifact(doc, () => doc.rect(left, top, width, total).fillColor(BAND).fill());
  const list = container(doc, parent, 'L');
  let y = top + pad;
  rows.forEach((row, i) => {
    row.forEach(([label, value, bold], col) => {
      const x = left + col * colW + pad;
      const item = container(doc, list, 'LI');
      tag(doc, item, 'Lbl', () =>
        doc
          .fillColor(MUTED)
          .font('regular')
          .fontSize(8)
          .text(label.toUpperCase(), x, y + 1.5, { width: labelW }),
      );
      tag(doc, item, 'LBody', () =>
        doc
          .fillColor(INK)
          .font(bold ? 'bold' : 'regular')
          .fontSize(9.5)
          .text(value, x + labelW, y, { width: valueW }),
      );
      item.end();
    });
    y += heights[i] ?? 0;
  });
  list.end();
  doc.y = top + total + 10;
}

/** What the object is: the ICOM Object ID fields the report states. */
function identificationSection(ctx: Ctx) {
  const id = ctx.input.content?.identification;
  const pairs = IDENTIFICATION_FIELDS.flatMap(({ field, label }): [string, string][] =>
    id?.[field] ? [[label, id[field] ?? '']] : [],
  );
  if (!pairs.length) return;
  const sect = container(ctx.doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Identification');
  drawPairs(ctx, sect, pairs);
  sect.end();
  ctx.doc.y += 4;
}

const PHOTO_COLUMNS = 3;
const PHOTO_HEIGHT = 118;
/**
 * A row of photos that does not fit whole under the text is drawn shorter, down to this height,
 * rather than leave the rest of the page empty; below it, the row moves to the next page.
 */
const MIN_PHOTO_HEIGHT = 88;

/** The chosen photos, three to a row, each a figure with its caption. */
function photosSection(ctx: Ctx) {
  const { doc, input, left, width, root, bottomLimit } = ctx;
  const photos = (input.photos ?? []).flatMap((p) => {
    try {
      return [{ ...p, opened: openImage(doc, p.image) }];
    } catch {
      return []; // An image pdfkit cannot read is left out.
    }
  });
  if (!photos.length) return;
  const sect = container(doc, root, 'Sect');
  heading(ctx, sect, 'Photographs', MIN_PHOTO_HEIGHT + 50);
  const gap = 12;
  const cellW = (width - gap * (PHOTO_COLUMNS - 1)) / PHOTO_COLUMNS;
  for (let i = 0; i < photos.length; i += PHOTO_COLUMNS) {
    const row = photos.slice(i, i + PHOTO_COLUMNS);
    doc.font('regular').fontSize(7.5);
    const captionH = Math.max(...row.map((p) => doc.heightOfString(p.caption, { width: cellW })));
    const room = bottomLimit() - doc.y - captionH - 8;
    if (room < MIN_PHOTO_HEIGHT) doc.addPage();
    const photoH = room < MIN_PHOTO_HEIGHT ? PHOTO_HEIGHT : Math.min(PHOTO_HEIGHT, room);
    const top = doc.y;
    row.forEach((p, col) => {
      const x = left + col * (cellW + gap);
      artifact(doc, () => doc.rect(x, top, cellW, photoH).fillColor(BAND).fill());
      tag(
        doc,
        sect,
        'Figure',
        () => doc.image(p.opened, x, top, { fit: [cellW, photoH], align: 'center', valign: 'center' }),
        { alt: p.caption },
      );
      tag(doc, sect, 'P', () =>
        doc
          .fillColor(MUTED)
          .font('regular')
          .fontSize(7.5)
          .text(p.caption, x, top + photoH + 3, { width: cellW }),
      );
    });
    doc.y = top + photoH + captionH + 12;
  }
  sect.end();
  doc.y += 4;
}

/** The lab's opinion: authenticity verdict and condition grade, each stated plainly. */
function verdictsSection(ctx: Ctx) {
  const { doc, input, left, width } = ctx;
  const c = input.content;
  const verdicts: [string, string][] = [
    ...(c?.authenticity ? [['Authenticity', verdictLabel(c.authenticity.verdict)] as [string, string]] : []),
    ...(c?.condition ? [['Condition', gradeLabel(c.condition.grade)] as [string, string]] : []),
  ];
  if (!verdicts.length) return;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Opinion');
  const colW = width / verdicts.length;
  const top = doc.y;
  verdicts.forEach(([label, value], i) => {
    const x = left + i * colW;
    tag(doc, sect, 'P', () =>
      doc
        .fillColor(MUTED)
        .font('regular')
        .fontSize(8)
        .text(label.toUpperCase(), x, top, { width: colW - 10 }),
    );
    tag(doc, sect, 'P', () =>
      doc
        .fillColor(INK)
        .font('bold')
        .fontSize(14)
        .text(value, x, top + 12, { width: colW - 10 }),
    );
  });
  sect.end();
  doc.y = top + 40;
}

/** The value (or range) with its currency, value type and effective date in words. */
function valueSection(ctx: Ctx) {
  const { doc, input, left, width } = ctx;
  const v = input.content?.valuation;
  if (!v) return;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Valuation', 90);
  const top = doc.y;
  const amount = formatValueRange(v);
  doc.font('bold').fontSize(18);
  const boxH = doc.heightOfString(amount, { width: width - 24 }) + 44;
  artifact(doc, () => doc.rect(left, top, width, boxH).lineWidth(1).strokeColor(ACCENT).stroke());
  tag(doc, sect, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(18)
      .text(amount, left + 12, top + 10, { width: width - 24 }),
  );
  tag(doc, sect, 'P', () =>
    doc
      .fillColor(INK)
      .font('regular')
      .fontSize(9.5)
      .text(
        `${valueTypeLabel(v.valueType)} in ${v.currency}, as at ${dateInWords(v.effectiveDate)}.`,
        left + 12,
        doc.y + 4,
        {
          width: width - 24,
        },
      ),
  );
  sect.end();
  doc.y = top + boxH + 12;
}

/**
 * One titled rich text (an H3 and its paragraphs): the title keeps its first two lines with it, a
 * paragraph may go on on the next page (two lines at least on each), and each paragraph but the
 * first may start a page. `breakable`: the title itself may start a page (not when it directly
 * follows a section's heading).
 */
export function richPart(
  ctx: Ctx,
  parent: PDFKit.PDFStructureElement,
  title: string,
  html: string,
  breakable = true,
) {
  const { doc, left, width, bottomLimit } = ctx;
  if (breakable) blockStart(ctx);
  if (doc.y + 40 > bottomLimit()) doc.addPage();
  tag(doc, parent, 'H3', () =>
    doc
      .fillColor(MUTED)
      .font('bold')
      .fontSize(9)
      .text(title.toUpperCase(), left, doc.y + 2, { width }),
  );
  doc.x = left;
  renderNotes(doc, html, { x: left, width, bottomLimit, ...paragraphBlocks(ctx) }, parent);
  doc.y += 6;
}

/** The long texts: summary, basis of valuation, authenticity rationale, condition notes. */
function narrativeSection(ctx: Ctx) {
  const { doc, input } = ctx;
  const c = input.content;
  const parts: [string, string | null | undefined][] = [
    ['Summary', c?.summary],
    ['Basis of valuation', c?.valuation?.basis],
    ['Authenticity', c?.authenticity?.rationale],
    ['Condition', c?.condition?.notes],
  ];
  const present = parts.filter((p): p is [string, string] => Boolean(p[1]));
  if (!present.length) return;
  const sect = container(doc, ctx.root, 'Sect');
  heading(ctx, sect, 'Findings');
  // The first part begins with the section's heading.
  for (const [i, [title, html]] of present.entries()) richPart(ctx, sect, title, html, i > 0);
  sect.end();
  doc.y += 6;
}

const COLUMNS = [
  { title: 'Element', width: 0.38, align: 'left' as const },
  { title: 'Percentage', width: 0.18, align: 'right' as const },
  { title: 'Purity', width: 0.24, align: 'left' as const },
  { title: 'Quality', width: 0.2, align: 'left' as const },
];

/** The element table, tagged as a Table; each element's notes belong to its row's last cell. */
function analysisSection(ctx: Ctx) {
  const { doc, input, left, width, bottomLimit, root } = ctx;
  if (!input.elements.length) return;
  blockStart(ctx);
  if (doc.y + 80 > bottomLimit()) doc.addPage();
  const sect = container(doc, root, 'Sect');
  drawH2(doc, sect, ctx, 'Analysis Results');
  const table = container(doc, sect, 'Table');
  const cellPad = 6;
  const colX = (ci: number) => left + COLUMNS.slice(0, ci).reduce((sum, c) => sum + c.width * width, 0);
  const colW = (ci: number) => (COLUMNS[ci]?.width ?? 0) * width;

  const headCells = COLUMNS.map(
    (c, ci) => (y: number) =>
      doc
        .fillColor('#ffffff')
        .font('bold')
        .fontSize(8.5)
        .text(c.title.toUpperCase(), colX(ci) + cellPad, y + 5.5, {
          width: colW(ci) - cellPad * 2,
          align: c.align,
        }),
  );
  /** The header row: tagged the first time, an artifact when repeated on a following page. */
  const drawHead = (repeated: boolean) => drawTableHead(doc, table, ctx, 20, headCells, repeated);
  drawHead(false);
  let total = 0;
  input.elements.forEach((e, i) => {
    total += e.percentage;
    const cells = [e.element, `${e.percentage.toFixed(2)}%`, e.purity ?? 'N/A', e.quality ?? 'N/A'];
    doc.font('regular').fontSize(9.5);
    const h =
      Math.max(...cells.map((t, ci) => doc.heightOfString(t, { width: colW(ci) - cellPad * 2 }))) +
      cellPad * 2;
    const { y, tr } = tableRow(doc, table, ctx, {
      index: i,
      height: h,
      bottom: bottomLimit(),
      repeatHead: () => drawHead(true),
    });
    let lastCell: PDFKit.PDFStructureElement | null = null;
    cells.forEach((t, ci) => {
      const c = COLUMNS[ci];
      if (!c) return;
      const td = container(doc, tr, 'TD');
      tag(doc, td, 'P', () =>
        doc
          .fillColor(INK)
          .font(ci === 0 ? 'bold' : 'regular')
          .fontSize(9.5)
          .text(t, colX(ci) + cellPad, y + cellPad, { width: colW(ci) - cellPad * 2, align: c.align }),
      );
      if (ci === cells.length - 1) lastCell = td;
      else td.end();
    });
    doc.y = y + h;
    const notesCell = lastCell as PDFKit.PDFStructureElement | null;
    if (e.notes && notesCell) {
      doc.x = left + cellPad + 10;
      renderNotes(
        doc,
        e.notes,
        { x: left + cellPad + 10, width: width - cellPad * 2 - 10, bottomLimit },
        notesCell,
      );
      doc.y += 4;
    }
    notesCell?.end();
    tr.end();
    rule(doc, ctx, doc.y, 0.5);
  });
  if (doc.y + 22 > bottomLimit()) doc.addPage();
  const y = doc.y;
  const tr = container(doc, table, 'TR');
  tag(doc, tr, 'TH', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(9.5)
      .text('Total', left + cellPad, y + 6, { width: colW(0) }),
  );
  tag(doc, tr, 'TD', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(9.5)
      .text(`${total.toFixed(2)}%`, colX(1) + cellPad, y + 6, {
        width: colW(1) - cellPad * 2,
        align: 'right',
      }),
  );
  // Two empty cells keep every row four cells wide.
  tr.add(doc.struct('TD'));
  tr.add(doc.struct('TD'));
  tr.end();
  table.end();
  sect.end();
  doc.y = y + 24;
  rule(doc, ctx, doc.y - 2, 1, ACCENT);
  doc.y += 10;
}

type Signatory = { name: string; signature: Buffer | null };

/**
 * The measures of a signature block: its width, the box its image is fitted into, where its line
 * is (below the image box), the gap above the name and the size of the two small lines. The compact
 * sign-off uses a shorter image box and smaller type.
 */
type SignatureSize = { width: number; imageTop: number; imageH: number; lineGap: number; small: number };
const FULL_SIGNATURE: SignatureSize = { width: 220, imageTop: 14, imageH: 56, lineGap: 6, small: 8 };
const COMPACT_SIGNATURE: SignatureSize = { width: 185, imageTop: 11, imageH: 36, lineGap: 2, small: 7.5 };

/** One signature block: heading, signature image (when present) over a line, name and two small lines. */
function signatureBlock(
  ctx: Ctx,
  at: { x: number; top: number },
  heading: string,
  person: Signatory,
  lines: [string, string],
  size: SignatureSize = FULL_SIGNATURE,
): number {
  const { doc, root } = ctx;
  const { x, top } = at;
  const { width } = size;
  const block = container(doc, root, 'Sect');
  tag(doc, block, 'H2', () =>
    doc.fillColor(MUTED).font('regular').fontSize(8).text(heading, x, top, { width }),
  );
  const sigTop = top + size.imageTop;
  if (person.signature) {
    try {
      const image = openReusedImage(ctx, person.signature);
      tag(
        doc,
        block,
        'Figure',
        () => doc.image(image, x, sigTop, { fit: [Math.min(180, width), size.imageH], valign: 'bottom' }),
        { alt: `Signature of ${person.name}` },
      );
    } catch {
      // An unreadable signature image is left out; the name and line remain.
    }
  }
  const lineY = sigTop + size.imageH + size.lineGap;
  artifact(doc, () =>
    doc
      .moveTo(x, lineY)
      .lineTo(x + width, lineY)
      .lineWidth(0.8)
      .strokeColor(INK)
      .stroke(),
  );
  tag(doc, block, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(10)
      .text(person.name, x, lineY + size.lineGap - 1, { width }),
  );
  for (const line of lines)
    tag(doc, block, 'P', () =>
      doc.fillColor(MUTED).font('regular').fontSize(size.small).text(line, x, doc.y, { width }),
    );
  block.end();
  return Math.max(doc.y, lineY + size.lineGap - 1 + 35);
}

/** The signature blocks of the sign-off: the analyst's, and the reviewer's for a reviewed report. */
function signatories(ctx: Ctx) {
  const { input } = ctx;
  const reviewer = input.reviewer ?? null;
  const analyst = input.analyst ?? { name: 'Laboratory analyst', signature: null };
  const analystBlock = {
    heading: 'ANALYZED BY',
    person: analyst,
    lines: [
      `Analyst, ${input.lab.name}`,
      `${reviewer === 'pending' ? 'Submitted' : 'Issued'} ${longDate(input.issuedAt)}`,
    ] as [string, string],
  };
  if (!reviewer) return { analystBlock, reviewerBlock: null };
  const reviewerBlock =
    reviewer === 'pending'
      ? {
          heading: 'REVIEWED BY',
          person: { name: 'Awaiting review', signature: null },
          lines: ['A second expert has not yet approved', 'this draft: it is not an issued report.'] as [
            string,
            string,
          ],
        }
      : {
          heading: 'REVIEWED BY',
          person: reviewer,
          lines: [`Reviewer, ${input.lab.name}`, `Approved ${longDate(reviewer.reviewedAt)}`] as [
            string,
            string,
          ],
        };
  return { analystBlock, reviewerBlock };
}

/** The sentence of the verification block. */
const verifySentence = (input: ReportPdfInput) =>
  `Scan the code or visit ${input.verifyUrl} to confirm this document is authentic and current (revision ${input.revision}).`;

/**
 * Who analysed it and, for a reviewed report, who reviewed it (names, signature images), then how to
 * verify it (code, address, QR code) and the closing note: always together on one page, the last
 * (docs/product/valuation-report.md, "The PDF"). The full sign-off is drawn when it fits under the
 * report's last text; else the compact one (smaller signature boxes and QR code, about half the
 * height of a reviewed report's full one) when that fits; else the full one starts a new page, and
 * the report's second pass (drawPaginated) carries the last lines of the text over with it.
 */
function signOffSection(ctx: Ctx) {
  const { doc, width, bottomLimit } = ctx;
  doc.font('italic').fontSize(7.5);
  const noteH = doc.heightOfString(CLOSING_NOTE, { width });
  const room = bottomLimit() - doc.y;
  const mode =
    room >= fullSignOffHeight(ctx, noteH)
      ? 'full'
      : room >= compactSignOffHeight(ctx, noteH)
        ? 'compact'
        : null;
  if (ctx.layout) ctx.layout.signOff = mode ?? 'full';
  if (!mode) {
    if (ctx.layout) ctx.layout.signOffLeft = { page: pageIndex(doc), room };
    doc.addPage();
  }
  if (mode === 'compact') drawCompactSignOff(ctx);
  else drawFullSignOff(ctx);
  tag(doc, ctx.root, 'P', () =>
    doc.fillColor(MUTED).font('italic').fontSize(7.5).text(CLOSING_NOTE, ctx.left, doc.y, { width }),
  );
}

/**
 * How tall the signature blocks are drawn in `size`: the heading and image box, the line, the name
 * and the two small lines as they wrap (36 pt under the line at least).
 */
function signaturesHeight(ctx: Ctx, size: SignatureSize) {
  const { doc } = ctx;
  const { analystBlock, reviewerBlock } = signatories(ctx);
  const nameTop = size.imageTop + size.imageH + 2 * size.lineGap - 1;
  const heights = [analystBlock, ...(reviewerBlock ? [reviewerBlock] : [])].map((b) => {
    doc.font('bold').fontSize(10);
    const nameH = doc.heightOfString(b.person.name, { width: size.width });
    doc.font('regular').fontSize(size.small);
    const linesH = b.lines.reduce((sum, l) => sum + doc.heightOfString(l, { width: size.width }), 0);
    return nameTop + Math.max(36, nameH + linesH);
  });
  return Math.max(...heights);
}

/**
 * The full sign-off's height: the signature blocks (117 pt for one-line names) under a 6 pt gap;
 * with a reviewer, the verification (a 92 pt QR code) comes 14 pt below the signatures, else beside
 * them; then the closing note.
 */
function fullSignOffHeight(ctx: Ctx, noteH: number) {
  const signaturesH = signaturesHeight(ctx, FULL_SIGNATURE);
  return (ctx.input.reviewer ? 6 + signaturesH + 14 + 92 : 6 + Math.max(signaturesH, 92)) + 8 + noteH + 2;
}

/**
 * The compact sign-off's height (about 134 pt): the row of signatures and QR code (88 pt for
 * one-line names) under a 4 pt gap, the verification sentence under it, then the closing note.
 */
function compactSignOffHeight(ctx: Ctx, noteH: number) {
  const { doc, input, width } = ctx;
  doc.font('bold').fontSize(9);
  const qrColumnH = 12 + COMPACT_QR + 1 + doc.heightOfString(input.reportCode, { width: 100 });
  const rowH = Math.max(signaturesHeight(ctx, COMPACT_SIGNATURE), qrColumnH);
  doc.font('regular').fontSize(7.5);
  const sentenceH = doc.heightOfString(verifySentence(input), { width });
  return 4 + rowH + 3 + sentenceH + 3 + noteH + 2;
}

/** The compact sign-off's QR code: 62 pt square, about two thirds of the full one's. */
const COMPACT_QR = 62;

/**
 * The full sign-off. A reviewed report puts the two signatures side by side and the verification
 * block below them; else the verification block is beside the analyst's signature.
 */
function drawFullSignOff(ctx: Ctx) {
  const { doc, input, left, width, root } = ctx;
  const top = doc.y + 6;
  const { analystBlock, reviewerBlock } = signatories(ctx);
  const analystBottom = signatureBlock(
    ctx,
    { x: left, top },
    analystBlock.heading,
    analystBlock.person,
    analystBlock.lines,
  );
  let verifyTop = top;
  if (reviewerBlock) {
    const x = left + width - 220;
    const reviewerBottom = signatureBlock(
      ctx,
      { x, top },
      reviewerBlock.heading,
      reviewerBlock.person,
      reviewerBlock.lines,
    );
    verifyTop = Math.max(analystBottom, reviewerBottom) + 14;
  }
  const signaturesBottom = reviewerBlock ? verifyTop : analystBottom;

  // Verification: the code and address beside a QR code drawn as vector squares.
  const verify = container(doc, root, 'Sect');
  const qrSize = 92;
  const qrX = left + width - qrSize;
  const textW = 170;
  const textX = qrX - textW - 12;
  const right = { width: textW, align: 'right' as const };
  tag(doc, verify, 'H2', () =>
    doc.fillColor(MUTED).font('regular').fontSize(8).text('VERIFY THIS REPORT', textX, verifyTop, right),
  );
  tag(doc, verify, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(12)
      .text(input.reportCode, textX, doc.y + 2, { ...right, characterSpacing: 1.2 }),
  );
  tag(doc, verify, 'P', () =>
    doc
      .fillColor(MUTED)
      .font('regular')
      .fontSize(7.5)
      .text(verifySentence(input), textX, doc.y + 2, right),
  );
  const textBottom = doc.y;
  tag(doc, verify, 'Figure', () => drawQr(doc, input.verifyUrl, qrX, verifyTop, qrSize), {
    alt: `QR code linking to ${input.verifyUrl}`,
  });
  verify.end();
  doc.y = Math.max(textBottom, signaturesBottom, verifyTop + qrSize) + 8;
}

/**
 * The compact sign-off: one row with the analyst's signature on the left, the reviewer's on the
 * right and between them (or, without a reviewer, at the right) the verification heading, a smaller
 * QR code and the code; the verification sentence on one line under the row.
 */
function drawCompactSignOff(ctx: Ctx) {
  const { doc, input, left, width, root } = ctx;
  const top = doc.y + 4;
  const { analystBlock, reviewerBlock } = signatories(ctx);
  const sigW = COMPACT_SIGNATURE.width;
  let rowBottom = signatureBlock(
    ctx,
    { x: left, top },
    analystBlock.heading,
    analystBlock.person,
    analystBlock.lines,
    COMPACT_SIGNATURE,
  );
  if (reviewerBlock)
    rowBottom = Math.max(
      rowBottom,
      signatureBlock(
        ctx,
        { x: left + width - sigW, top },
        reviewerBlock.heading,
        reviewerBlock.person,
        reviewerBlock.lines,
        COMPACT_SIGNATURE,
      ),
    );
  // The verification column: centred between the signatures, or at the right without a reviewer.
  const colW = width - 2 * sigW - 2 * 12;
  const colX = reviewerBlock ? left + sigW + 12 : left + width - colW;
  const centred = { width: colW, align: 'center' as const };
  const verify = container(doc, root, 'Sect');
  tag(doc, verify, 'H2', () =>
    doc.fillColor(MUTED).font('regular').fontSize(8).text('VERIFY THIS REPORT', colX, top, centred),
  );
  const qrTop = top + 12;
  tag(doc, verify, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(9)
      .text(input.reportCode, colX, qrTop + COMPACT_QR + 1, { ...centred, characterSpacing: 1.2 }),
  );
  rowBottom = Math.max(rowBottom, doc.y);
  tag(doc, verify, 'P', () =>
    doc
      .fillColor(MUTED)
      .font('regular')
      .fontSize(7.5)
      .text(verifySentence(input), left, rowBottom + 3, { width }),
  );
  const sentenceBottom = doc.y;
  const qrX = colX + (colW - COMPACT_QR) / 2;
  tag(doc, verify, 'Figure', () => drawQr(doc, input.verifyUrl, qrX, qrTop, COMPACT_QR), {
    alt: `QR code linking to ${input.verifyUrl}`,
  });
  verify.end();
  doc.y = sentenceBottom + 3;
}

const CLOSING_NOTE =
  'This report reflects the condition of the item when examined. Results apply only to the item identified above. ' +
  'The document is issued electronically and digitally signed by the laboratory; its authenticity can be confirmed with the verification code.';

const DRAFT_RED = '#c92a2a';

/** A preview's marks on the current page: a red band above the content and a faint diagonal watermark. */
function drawDraftMarks(
  doc: PDFKit.PDFDocument,
  band: string,
  { left, width }: { left: number; width: number },
) {
  artifact(
    doc,
    () => {
      const top = 14;
      doc.rect(left, top, width, 22).fillColor(DRAFT_RED).fill();
      doc
        .fillColor('#ffffff')
        .font('bold')
        .fontSize(9)
        .text(`${band} · a preview for the lab only: not signed, not valid as a report`, left, top + 6.5, {
          width,
          align: 'center',
          lineBreak: false,
        });
      const cx = doc.page.width / 2;
      const cy = doc.page.height / 2;
      doc.save();
      doc.rotate(-40, { origin: [cx, cy] });
      doc.fillColor(DRAFT_RED).fillOpacity(0.1).font('bold').fontSize(52);
      doc.text(band.toUpperCase(), cx - 450, cy - 30, { width: 900, align: 'center', lineBreak: false });
      doc.restore();
      doc.fillOpacity(1);
    },
    'Layout',
  );
}
