import { imageFor, type PreparedImage } from './images';
import { loadPdfLibs, pdfLibs } from './pdf-libs';

// What the lab's PDFs share (reports, appraisals, collection schedules, invoices, item labels): the
// fonts, colours and page geometry, opening a document and collecting its bytes, the tagging helpers
// of a tagged PDF (PDF/UA-1: every piece of content is a structure element or an artifact), the lab
// header, the title, section headings, table header rows, the page footers and the QR code.

export const INK = '#1f2933';
export const MUTED = '#52606d';
export const RULE = '#bcccdc';
export const ACCENT = '#243b53';
export const BAND = '#f0f4f8';
/** The shade of every other row of a table. */
export const ZEBRA = '#f7f9fb';
export const MARGIN = 50;
export const FOOTER_HEIGHT = 36;

export const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * A new document with the lab's fonts registered ('regular', 'bold', 'italic', 'boldItalic',
 * 'serifBold') and the promise of its bytes once `doc.end()` is called.
 */
export async function openPdf(options: PDFKit.PDFDocumentOptions) {
  const { PDFDocument, fonts } = await loadPdfLibs();
  const doc = new PDFDocument(options);
  for (const [name, font] of Object.entries(fonts)) doc.registerFont(name, font);
  doc.font('regular');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

/**
 * An A4 tagged PDF (PDF/UA-1) with room for the page footers, every page kept in memory until the
 * footers are drawn, and its structure tree's Document element (`root`) already added.
 */
export async function openTaggedA4(title: string, info: PDFKit.DocumentInfo) {
  const { doc, done } = await openPdf({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_HEIGHT },
    bufferPages: true,
    pdfVersion: '1.7',
    tagged: true,
    // PDF/UA-1 identification in the XMP metadata; pdfkit supports it, its type definitions lag.
    subset: 'PDF/UA' as unknown as PDFKit.Mixins.PDFSubsets,
    lang: 'en-US',
    displayTitle: true,
    // No default font: every font is registered by openPdf, so nothing unembedded can slip in.
    font: null as unknown as string,
    info: { Title: title, ...info },
  });
  const root = doc.struct('Document', { title });
  doc.addStructure(root);
  return { doc, done, root, left: MARGIN, width: doc.page.width - MARGIN * 2 };
}

/** Adds a leaf structure element whose content is whatever `draw` paints, and paints it now. */
export function tag(
  doc: PDFKit.PDFDocument,
  parent: PDFKit.PDFStructureElement,
  type: string,
  draw: () => unknown,
  options: { alt?: string; title?: string } = {},
) {
  parent.add(doc.struct(type, options, () => void draw()));
}

/** Paints decoration that is not content (rules, bands, repeated headers, footers). */
export function artifact(doc: PDFKit.PDFDocument, draw: () => unknown, type?: 'Pagination' | 'Layout') {
  doc.markContent('Artifact', type ? { type } : undefined);
  draw();
  doc.endMarkedContent();
}

/** A container element (Sect, Table, TR, L…) added to `parent`; end it when its children are in. */
export function container(doc: PDFKit.PDFDocument, parent: PDFKit.PDFStructureElement, type: string) {
  const el = doc.struct(type);
  parent.add(el);
  return el;
}

/** A horizontal rule across the text width (an artifact). */
export function rule(
  doc: PDFKit.PDFDocument,
  { left, width }: { left: number; width: number },
  y: number,
  lineWidth: number,
  color = RULE,
) {
  artifact(doc, () =>
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(lineWidth)
      .strokeColor(color)
      .stroke(),
  );
}

type Lab = {
  name: string;
  address: string;
  phone: string;
  email: string | null;
  certificationNumber: string | null;
};

/**
 * The lab's identity on the left (logo, name, address, phone, certification), a code block on the
 * right (what a reader needs to check the document); leaves `doc.y` 12 pt below the taller side.
 */
export function drawLabHeader(
  doc: PDFKit.PDFDocument,
  root: PDFKit.PDFStructureElement,
  { left, width }: { left: number; width: number },
  header: {
    lab: Lab;
    /** The prepared logo; null for one that cannot be read (room is still kept), undefined for none. */
    logo: PreparedImage | null | undefined;
    /** Centre the logo in its 64 pt square (the report) rather than at its top left (the schedule). */
    centreLogo: boolean;
    /** A little space under the lab's name (the report). */
    nameGap: boolean;
    codeLabel: string;
    code: string;
    /** Small lines under the code (revision, date of issue). */
    lines: string[];
  },
) {
  const { lab } = header;
  const sect = container(doc, root, 'Sect');
  const top = doc.y;
  let textLeft = left;
  if (header.logo !== undefined) {
    try {
      // Opened first, so an image pdfkit cannot read is left out rather than failing the document.
      const image = imageFor(doc, header.logo);
      const place = header.centreLogo ? { align: 'center' as const, valign: 'center' as const } : {};
      tag(doc, sect, 'Figure', () => doc.image(image, left, top, { fit: [64, 64], ...place }), {
        alt: `Logo of ${lab.name}`,
      });
      textLeft = left + 78;
    } catch {
      // Unreadable logo: no figure.
    }
  }
  const textWidth = width - (textLeft - left) - 150;
  tag(doc, sect, 'P', () =>
    doc.fillColor(ACCENT).font('serifBold').fontSize(17).text(lab.name, textLeft, top, { width: textWidth }),
  );
  if (header.nameGap) doc.moveDown(0.2);
  const contact = [
    lab.address,
    `Tel. ${lab.phone}${lab.email ? `   ·   ${lab.email}` : ''}`,
    ...(lab.certificationNumber ? [`Certification No. ${lab.certificationNumber}`] : []),
  ];
  for (const line of contact)
    tag(doc, sect, 'P', () =>
      doc.fillColor(MUTED).font('regular').fontSize(8.5).text(line, textLeft, doc.y, { width: textWidth }),
    );
  const leftBottom = Math.max(doc.y, top + (header.logo !== undefined ? 64 : 0));

  const boxW = 140;
  const boxX = left + width - boxW;
  const right = { width: boxW, align: 'right' as const };
  tag(doc, sect, 'P', () =>
    doc.fillColor(MUTED).font('regular').fontSize(7.5).text(header.codeLabel, boxX, top, right),
  );
  tag(doc, sect, 'P', () =>
    doc
      .fillColor(INK)
      .font('bold')
      .fontSize(15)
      .text(header.code, boxX, doc.y, { ...right, characterSpacing: 1.5 }),
  );
  for (const line of header.lines)
    tag(doc, sect, 'P', () =>
      doc.fillColor(MUTED).font('regular').fontSize(8).text(line, boxX, doc.y, right),
    );
  sect.end();
  doc.y = Math.max(leftBottom, doc.y) + 12;
}

/** The document's one H1 under a rule, with its subtitle. */
export function drawTitle(
  doc: PDFKit.PDFDocument,
  root: PDFKit.PDFStructureElement,
  area: { left: number; width: number },
  title: string,
  subtitle: string,
) {
  const { left, width } = area;
  const y = doc.y;
  rule(doc, area, y, 1.2, ACCENT);
  tag(doc, root, 'H1', () =>
    doc
      .fillColor(ACCENT)
      .font('serifBold')
      .fontSize(20)
      .text(title, left, y + 14, { width, align: 'center' }),
  );
  tag(doc, root, 'P', () =>
    doc.fillColor(MUTED).font('regular').fontSize(9).text(subtitle, left, doc.y, { width, align: 'center' }),
  );
  doc.y += 12;
}

/** A section heading (H2) at `doc.y`. */
export function drawH2(
  doc: PDFKit.PDFDocument,
  parent: PDFKit.PDFStructureElement,
  { left, width }: { left: number; width: number },
  text: string,
) {
  tag(doc, parent, 'H2', () =>
    doc.fillColor(ACCENT).font('serifBold').fontSize(13).text(text, left, doc.y, { width }),
  );
  doc.y += 4;
}

/**
 * A table's header row on a dark band `height` tall: tagged (TR of TH) the first time, an artifact
 * when repeated at the top of a following page. `cells` paint each column's title at band top `y`.
 */
export function drawTableHead(
  doc: PDFKit.PDFDocument,
  table: PDFKit.PDFStructureElement,
  { left, width }: { left: number; width: number },
  height: number,
  cells: ((y: number) => unknown)[],
  repeated: boolean,
) {
  const y = doc.y;
  artifact(doc, () => doc.rect(left, y, width, height).fillColor(ACCENT).fill());
  if (repeated) artifact(doc, () => cells.forEach((cell) => cell(y)), 'Pagination');
  else {
    const tr = container(doc, table, 'TR');
    cells.forEach((cell) => tag(doc, tr, 'TH', () => cell(y)));
    tr.end();
  }
  doc.y = y + height;
}

/**
 * Begins row `row` of a table, `height` tall: on a new page under the header row again
 * (`repeatHead`) when it does not fit above `bottom`, shaded when it is an odd row. Returns its top
 * and its TR, to end once its cells are in.
 */
export function tableRow(
  doc: PDFKit.PDFDocument,
  table: PDFKit.PDFStructureElement,
  { left, width }: { left: number; width: number },
  row: { index: number; height: number; bottom: number; repeatHead: () => void },
) {
  if (doc.y + row.height > row.bottom) {
    doc.addPage();
    row.repeatHead();
  }
  const y = doc.y;
  if (row.index % 2 === 1) artifact(doc, () => doc.rect(left, y, width, row.height).fillColor(ZEBRA).fill());
  return { y, tr: container(doc, table, 'TR') };
}

/**
 * Each page's footer (a pagination artifact): a rule, `label` on the left, "Page n of N" on the
 * right; `perPage` paints anything else every page carries (a draft's marks).
 */
export function drawFooters(
  doc: PDFKit.PDFDocument,
  { left, width }: { left: number; width: number },
  label: string,
  perPage?: () => void,
) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    artifact(
      doc,
      () => {
        doc
          .moveTo(left, y - 6)
          .lineTo(left + width, y - 6)
          .lineWidth(0.5)
          .strokeColor(RULE)
          .stroke();
        doc.fillColor(MUTED).font('regular').fontSize(7.5);
        doc.text(label, left, y, { width: width * 0.75, lineBreak: false });
        doc.text(`Page ${i - range.start + 1} of ${range.count}`, left + width * 0.75, y, {
          width: width * 0.25,
          align: 'right',
          lineBreak: false,
        });
      },
      'Pagination',
    );
    perPage?.();
    doc.page.margins.bottom = bottom;
  }
}

/** A QR code drawn as vector squares. */
export function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const qr = pdfLibs().QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  doc.rect(x, y, size, size).fillColor('#ffffff').fill();
  doc.fillColor('#000000');
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (qr.modules.get(r, c))
        doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell + 0.05, cell + 0.05);
    }
  }
  doc.fill();
}
