import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { withoutLayoutTables } from './font-tables';
import { renderNotes } from './notes-pdf';

// The issued report (CONTRACT §3): rendered once, in-process, A4, every font embedded (Noto, so any
// Latin, Greek or Cyrillic name prints), with page numbers, logo, signature and a verification QR code.

const require = createRequire(import.meta.url);
// pdfkit accepts an already-parsed fontkit font. Parsing Noto's tables costs about 40 ms per font
// and document, so each font is parsed once per process with the very fontkit pdfkit depends on.
const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as { create(buf: Buffer): object };
const fontFile = (pkg: string, file: string) =>
  fontkit.create(
    withoutLayoutTables(readFileSync(require.resolve(`@expo-google-fonts/${pkg}/${file}`))),
  ) as unknown as Buffer;

/** Parsed once per process; pdfkit subsets and embeds them into every document. */
const FONTS = {
  regular: fontFile('noto-sans', '400Regular/NotoSans_400Regular.ttf'),
  bold: fontFile('noto-sans', '700Bold/NotoSans_700Bold.ttf'),
  italic: fontFile('noto-sans', '400Regular_Italic/NotoSans_400Regular_Italic.ttf'),
  boldItalic: fontFile('noto-sans', '700Bold_Italic/NotoSans_700Bold_Italic.ttf'),
  serifBold: fontFile('noto-serif', '700Bold/NotoSerif_700Bold.ttf'),
};

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
  analyst: { name: string; signature: Buffer | null } | null;
  reportCode: string;
  revision: number;
  issuedAt: Date;
  verifyUrl: string;
};

const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#bcccdc';
const ACCENT = '#243b53';
const BAND = '#f0f4f8';
const MARGIN = 50;
const FOOTER_HEIGHT = 36;

const longDate = (d: Date) =>
  d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export async function renderReportPdf(input: ReportPdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_HEIGHT },
    bufferPages: true,
    // No default font: every font is registered below, so nothing unembedded can slip in.
    font: null as unknown as string,
    info: {
      Title: `Analysis Report ${input.reportCode}`,
      Author: input.lab.name,
      Subject: `${input.sample.displayId} ${input.sample.itemName}`,
      Keywords: `report ${input.reportCode} revision ${input.revision}`,
      CreationDate: input.issuedAt,
    },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  doc.registerFont('italic', FONTS.italic);
  doc.registerFont('boldItalic', FONTS.boldItalic);
  doc.registerFont('serifBold', FONTS.serifBold);
  doc.font('regular');

  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;
  const bottomLimit = () => doc.page.height - doc.page.margins.bottom;

  drawHeader(doc, input, left, width);
  drawDetails(doc, input, left, width);
  drawAnalysisTable(doc, input, left, width, bottomLimit);
  await drawSignOff(doc, input, left, width, bottomLimit);
  drawFooters(doc, input, left, width);

  doc.end();
  return done;
}

function drawHeader(doc: PDFKit.PDFDocument, input: ReportPdfInput, left: number, width: number) {
  const top = doc.y;
  let textLeft = left;
  if (input.lab.logo) {
    try {
      doc.image(input.lab.logo, left, top, { fit: [64, 64], align: 'center', valign: 'center' });
      textLeft = left + 78;
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the report.
    }
  }
  const textWidth = width - (textLeft - left) - 150;
  doc
    .fillColor(ACCENT)
    .font('serifBold')
    .fontSize(17)
    .text(input.lab.name, textLeft, top, { width: textWidth });
  doc.moveDown(0.2);
  doc.fillColor(MUTED).font('regular').fontSize(8.5);
  doc.text(input.lab.address, { width: textWidth });
  doc.text(`Tel. ${input.lab.phone}${input.lab.email ? `   ·   ${input.lab.email}` : ''}`, {
    width: textWidth,
  });
  if (input.lab.certificationNumber)
    doc.text(`Certification No. ${input.lab.certificationNumber}`, { width: textWidth });
  const leftBottom = Math.max(doc.y, top + (input.lab.logo ? 64 : 0));

  // The code block on the right: what a reader needs to check the document.
  const boxW = 140;
  const boxX = left + width - boxW;
  doc
    .fillColor(MUTED)
    .font('regular')
    .fontSize(7.5)
    .text('VERIFICATION CODE', boxX, top, { width: boxW, align: 'right' });
  doc
    .fillColor(INK)
    .font('bold')
    .fontSize(15)
    .text(input.reportCode, boxX, doc.y, { width: boxW, align: 'right', characterSpacing: 1.5 });
  doc.fillColor(MUTED).font('regular').fontSize(8);
  doc.text(`Revision ${input.revision}`, boxX, doc.y, { width: boxW, align: 'right' });
  doc.text(`Issued ${longDate(input.issuedAt)}`, boxX, doc.y, { width: boxW, align: 'right' });

  const y = Math.max(leftBottom, doc.y) + 12;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1.2)
    .strokeColor(ACCENT)
    .stroke();
  doc
    .fillColor(ACCENT)
    .font('serifBold')
    .fontSize(20)
    .text('Analysis Report', left, y + 14, { width, align: 'center' });
  doc
    .fillColor(MUTED)
    .font('regular')
    .fontSize(9)
    .text('Certificate of examination and analysis', { width, align: 'center' });
  doc.y += 12;
}

function drawDetails(doc: PDFKit.PDFDocument, input: ReportPdfInput, left: number, width: number) {
  const s = input.sample;
  const rows: [string, string, string, string][] = [
    ['Sample ID', s.displayId, 'Submitted', longDate(s.submissionDate)],
    ['Item', s.itemName, 'Report issued', longDate(input.issuedAt)],
    ['Category', s.category, 'Revision', String(input.revision)],
    ['Services', s.services, 'Client', s.ownerName],
  ];
  const top = doc.y;
  const colW = width / 2;
  const labelW = 78;
  const pad = 10;
  // Measure first so the band fits its text.
  doc.font('regular').fontSize(9.5);
  const heights = rows.map(
    ([, a, , b]) =>
      Math.max(
        doc.heightOfString(a, { width: colW - labelW - pad * 2 }),
        doc.heightOfString(b, { width: colW - labelW - pad * 2 }),
      ) + 5,
  );
  const total = heights.reduce((a, b) => a + b, 0) + pad * 2;
  doc.rect(left, top, width, total).fillColor(BAND).fill();
  let y = top + pad;
  rows.forEach(([l1, v1, l2, v2], i) => {
    for (const [col, label, value] of [
      [0, l1, v1],
      [1, l2, v2],
    ] as const) {
      const x = left + col * colW + pad;
      doc
        .fillColor(MUTED)
        .font('regular')
        .fontSize(8)
        .text(label.toUpperCase(), x, y + 1.5, { width: labelW });
      doc
        .fillColor(INK)
        .font(label === 'Item' ? 'bold' : 'regular')
        .fontSize(9.5)
        .text(value, x + labelW, y, { width: colW - labelW - pad * 2 });
    }
    y += heights[i] ?? 0;
  });
  doc.y = top + total + 10;
  if (s.description) {
    doc.fillColor(MUTED).font('regular').fontSize(8).text('DESCRIPTION', left, doc.y, { width });
    doc
      .fillColor(INK)
      .font('regular')
      .fontSize(9.5)
      .text(s.description, left, doc.y + 2, { width });
  }
  doc.y += 14;
}

const COLUMNS = [
  { title: 'Element', width: 0.38, align: 'left' as const },
  { title: 'Percentage', width: 0.18, align: 'right' as const },
  { title: 'Purity', width: 0.24, align: 'left' as const },
  { title: 'Quality', width: 0.2, align: 'left' as const },
];

function drawAnalysisTable(
  doc: PDFKit.PDFDocument,
  input: ReportPdfInput,
  left: number,
  width: number,
  bottomLimit: () => number,
) {
  doc.fillColor(ACCENT).font('serifBold').fontSize(13).text('Analysis Results', left, doc.y, { width });
  doc.y += 4;
  const cellPad = 6;
  const drawHead = () => {
    const y = doc.y;
    doc.rect(left, y, width, 20).fillColor(ACCENT).fill();
    let x = left;
    for (const c of COLUMNS) {
      const w = c.width * width;
      doc
        .fillColor('#ffffff')
        .font('bold')
        .fontSize(8.5)
        .text(c.title.toUpperCase(), x + cellPad, y + 5.5, { width: w - cellPad * 2, align: c.align });
      x += w;
    }
    doc.y = y + 20;
  };
  drawHead();
  let total = 0;
  input.elements.forEach((e, i) => {
    total += e.percentage;
    const cells = [e.element, `${e.percentage.toFixed(2)}%`, e.purity ?? 'N/A', e.quality ?? 'N/A'];
    doc.font('regular').fontSize(9.5);
    const h =
      Math.max(
        ...cells.map((t, ci) =>
          doc.heightOfString(t, { width: (COLUMNS[ci]?.width ?? 0) * width - cellPad * 2 }),
        ),
      ) +
      cellPad * 2;
    if (doc.y + h > bottomLimit()) {
      doc.addPage();
      drawHead();
    }
    const y = doc.y;
    if (i % 2 === 1) doc.rect(left, y, width, h).fillColor('#f7f9fb').fill();
    let x = left;
    cells.forEach((t, ci) => {
      const c = COLUMNS[ci];
      if (!c) return;
      const w = c.width * width;
      doc
        .fillColor(INK)
        .font(ci === 0 ? 'bold' : 'regular')
        .fontSize(9.5)
        .text(t, x + cellPad, y + cellPad, { width: w - cellPad * 2, align: c.align });
      x += w;
    });
    doc.y = y + h;
    if (e.notes) {
      doc.x = left + cellPad + 10;
      renderNotes(doc, e.notes, { x: left + cellPad + 10, width: width - cellPad * 2 - 10, bottomLimit });
      doc.y += 4;
    }
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  });
  if (doc.y + 22 > bottomLimit()) doc.addPage();
  const y = doc.y;
  doc
    .fillColor(INK)
    .font('bold')
    .fontSize(9.5)
    .text('Total', left + cellPad, y + 6, { width: (COLUMNS[0]?.width ?? 0) * width });
  doc.text(`${total.toFixed(2)}%`, left + (COLUMNS[0]?.width ?? 0) * width + cellPad, y + 6, {
    width: (COLUMNS[1]?.width ?? 0) * width - cellPad * 2,
    align: 'right',
  });
  doc.y = y + 24;
  doc
    .moveTo(left, doc.y - 2)
    .lineTo(left + width, doc.y - 2)
    .lineWidth(1)
    .strokeColor(ACCENT)
    .stroke();
  doc.y += 10;
}

async function drawSignOff(
  doc: PDFKit.PDFDocument,
  input: ReportPdfInput,
  left: number,
  width: number,
  bottomLimit: () => number,
) {
  const blockH = 150;
  if (doc.y + blockH > bottomLimit()) doc.addPage();
  const top = doc.y + 6;
  // Analyst: name, signature, line.
  doc.fillColor(MUTED).font('regular').fontSize(8).text('ANALYZED BY', left, top, { width: 220 });
  const sigTop = top + 14;
  if (input.analyst?.signature) {
    try {
      doc.image(input.analyst.signature, left, sigTop, { fit: [180, 56], valign: 'bottom' });
    } catch {
      // An unreadable signature image is left out; the name and line remain.
    }
  }
  const lineY = sigTop + 62;
  doc
    .moveTo(left, lineY)
    .lineTo(left + 220, lineY)
    .lineWidth(0.8)
    .strokeColor(INK)
    .stroke();
  doc
    .fillColor(INK)
    .font('bold')
    .fontSize(10)
    .text(input.analyst?.name ?? 'Laboratory analyst', left, lineY + 5, { width: 220 });
  doc
    .fillColor(MUTED)
    .font('regular')
    .fontSize(8)
    .text(`Analyst, ${input.lab.name}`, left, doc.y, { width: 220 });
  doc.text(`Issued ${longDate(input.issuedAt)}`, left, doc.y, { width: 220 });

  // Verification: QR code drawn as vector squares, with the address and code beside it.
  const qrSize = 92;
  const qrX = left + width - qrSize;
  drawQr(doc, input.verifyUrl, qrX, top, qrSize);
  const textW = 170;
  const textX = qrX - textW - 12;
  doc
    .fillColor(MUTED)
    .font('regular')
    .fontSize(8)
    .text('VERIFY THIS REPORT', textX, top, { width: textW, align: 'right' });
  doc
    .fillColor(INK)
    .font('bold')
    .fontSize(12)
    .text(input.reportCode, textX, doc.y + 2, { width: textW, align: 'right', characterSpacing: 1.2 });
  doc
    .fillColor(MUTED)
    .font('regular')
    .fontSize(7.5)
    .text(
      `Scan the code or visit ${input.verifyUrl} to confirm this document is authentic and current (revision ${input.revision}).`,
      textX,
      doc.y + 2,
      { width: textW, align: 'right' },
    );
  doc.y = Math.max(doc.y, lineY + 40, top + qrSize) + 8;
  doc
    .fillColor(MUTED)
    .font('italic')
    .fontSize(7.5)
    .text(
      'This report reflects the condition of the item when examined. Results apply only to the item identified above. ' +
        'The document is issued electronically; its authenticity can be confirmed with the verification code.',
      left,
      doc.y,
      { width },
    );
}

function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
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

function drawFooters(doc: PDFKit.PDFDocument, input: ReportPdfInput, left: number, width: number) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - 10;
    doc
      .moveTo(left, y - 6)
      .lineTo(left + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.fillColor(MUTED).font('regular').fontSize(7.5);
    doc.text(`${input.lab.name} · Report ${input.reportCode} · Revision ${input.revision}`, left, y, {
      width: width * 0.75,
      lineBreak: false,
    });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, left + width * 0.75, y, {
      width: width * 0.25,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}
