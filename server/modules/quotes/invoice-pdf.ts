import PDFDocument from 'pdfkit';
import { formatMoney } from '../../../common/domain/money';
import { FONTS } from '../reports/report-pdf';

// The invoice of an accepted quote (docs/product/quotes.md): A4, the lab's details from its settings,
// the sample, the quoted lines and total, the payment reference and whether it is paid. Drawn with
// the same PDF library and embedded Noto fonts as the reports.

export type InvoicePdfInput = {
  lab: {
    name: string;
    address: string | null;
    phone: string | null;
    email: string | null;
    website: string | null;
    certificationNumber: string | null;
  };
  number: string;
  issuedOn: string;
  customer: { name: string; email: string };
  sample: { displayId: string; itemName: string };
  lines: { description: string; amountMinor: number }[];
  totalMinor: number;
  currency: string;
  paid: { on: string; reference: string } | null;
};

const MARGIN = 56;
const INK = '#1f2937';
const MUTED = '#4b5563';

export function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const title = `Invoice ${input.number}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    pdfVersion: '1.7',
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: title,
      Author: input.lab.name,
      Subject: `${input.sample.displayId} ${input.sample.itemName}`,
    },
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;
  const money = (minor: number) => formatMoney(minor, input.currency);

  // The lab.
  doc.font('bold').fontSize(18).fillColor(INK).text(input.lab.name, left, MARGIN, { width });
  doc.font('regular').fontSize(9.5).fillColor(MUTED);
  const labLines = [
    input.lab.address,
    [input.lab.phone, input.lab.email].filter(Boolean).join(' · '),
    input.lab.website,
    input.lab.certificationNumber ? `Certification ${input.lab.certificationNumber}` : null,
  ].filter((l): l is string => Boolean(l));
  for (const line of labLines) doc.text(line, { width });

  // Title and facts.
  doc.moveDown(1.5);
  doc.font('bold').fontSize(22).fillColor(INK).text('Invoice', { width });
  doc.moveDown(0.5);
  const facts: [string, string][] = [
    ['Invoice number', input.number],
    ['Date', input.issuedOn],
    ['Sample', `${input.sample.displayId} · ${input.sample.itemName}`],
    ['Billed to', `${input.customer.name} <${input.customer.email}>`],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('bold').fontSize(10).fillColor(MUTED).text(label, left, y, { width: 110 });
    doc
      .font('regular')
      .fillColor(INK)
      .text(value, left + 120, y, { width: width - 120 });
    doc.moveDown(0.3);
  }

  // Lines.
  doc.moveDown(1);
  const amountWidth = 130;
  const descWidth = width - amountWidth - 10;
  const row = (description: string, amount: string, bold = false) => {
    const y = doc.y;
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(10.5)
      .fillColor(INK);
    doc.text(description, left, y, { width: descWidth });
    const after = doc.y;
    doc.text(amount, left + descWidth + 10, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(after, doc.y) + 4;
  };
  const rule = () => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.7)
      .strokeColor('#9ca3af')
      .stroke();
    doc.y += 6;
  };
  row('Description', `Amount (${input.currency})`, true);
  rule();
  for (const line of input.lines) row(line.description, money(line.amountMinor));
  rule();
  row('Total', money(input.totalMinor), true);

  // Payment.
  doc.moveDown(1.5);
  doc.font('bold').fontSize(11).fillColor(INK).text('Payment', left, doc.y, { width });
  doc.font('regular').fontSize(10).fillColor(INK);
  doc.text(`Payment reference: ${input.number}`, { width });
  doc.text(
    input.paid
      ? `Paid on ${input.paid.on} (reference ${input.paid.reference}). Thank you.`
      : 'Payment due. Please quote the payment reference with your payment.',
    { width },
  );
  doc.end();
  return done;
}
