import type { Storage } from '../../storage/storage';
import { formatMoney } from '../../../common/domain/money';
import { longDay } from '../../../common/domain/turnaround';
import { openPdf } from '../../pdf/kit';

// The invoice of an accepted quote (docs/product/quotes.md): A4, the lab's logo and details from its
// settings, the sample, the quoted lines and total, how to pay (the lab's instructions and payment
// link), the payment reference and whether it is paid. Dates as the product writes them. Drawn with
// the same PDF library and embedded Noto fonts as the reports.

export type InvoicePdfInput = {
  lab: {
    name: string;
    address: string | null;
    phone: string | null;
    email: string | null;
    website: string | null;
    certificationNumber: string | null;
    /** The lab's logo (PNG or JPEG) when set; left out if pdfkit cannot read it. */
    logo: Buffer | null;
    paymentInstructions: string | null;
    paymentLink: string | null;
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
const LOGO_SIZE = 56;

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const title = `Invoice ${input.number}`;
  const { doc, done } = await openPdf({
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
  const left = MARGIN;
  const width = doc.page.width - MARGIN * 2;
  const money = (minor: number) => formatMoney(minor, input.currency);

  // The lab: its logo on the left when it has one, its name and details beside it.
  let textLeft = left;
  if (input.lab.logo) {
    try {
      doc.image(input.lab.logo, left, MARGIN, { fit: [LOGO_SIZE, LOGO_SIZE] });
      textLeft = left + LOGO_SIZE + 14;
    } catch {
      // An image pdfkit cannot read is left out rather than failing the invoice.
    }
  }
  const textWidth = width - (textLeft - left);
  doc.font('bold').fontSize(18).fillColor(INK).text(input.lab.name, textLeft, MARGIN, { width: textWidth });
  doc.font('regular').fontSize(9.5).fillColor(MUTED);
  const labLines = [
    input.lab.address,
    [input.lab.phone, input.lab.email].filter(Boolean).join(' · '),
    input.lab.website,
    input.lab.certificationNumber ? `Certification ${input.lab.certificationNumber}` : null,
  ].filter((l): l is string => Boolean(l));
  for (const line of labLines) doc.text(line, textLeft, doc.y, { width: textWidth });
  doc.y = Math.max(doc.y, input.lab.logo && textLeft !== left ? MARGIN + LOGO_SIZE : 0);

  // Title and facts.
  doc.moveDown(1.5);
  doc.x = left;
  doc.font('bold').fontSize(22).fillColor(INK).text('Invoice', { width });
  doc.moveDown(0.5);
  const facts: [string, string][] = [
    ['Invoice number', input.number],
    ['Date', longDay(input.issuedOn)],
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
      ? `Paid on ${longDay(input.paid.on)} (reference ${input.paid.reference}). Thank you.`
      : 'Payment due. Please quote the payment reference with your payment.',
    { width },
  );
  if (!input.paid && (input.lab.paymentInstructions || input.lab.paymentLink)) {
    doc.moveDown(0.8);
    doc.font('bold').fontSize(10.5).fillColor(INK).text('How to pay', { width });
    doc.font('regular').fontSize(10).fillColor(INK);
    if (input.lab.paymentInstructions) doc.text(input.lab.paymentInstructions, { width });
    if (input.lab.paymentLink)
      doc.fillColor('#1c4e80').text(`Pay online: ${input.lab.paymentLink}`, {
        width,
        link: input.lab.paymentLink,
        underline: true,
      });
  }
  doc.end();
  return done;
}

/** The lab's logo bytes for the invoice, or null when none is set or it cannot be read. */
export async function readLabLogo(storage: Storage, key: string | null | undefined): Promise<Buffer | null> {
  if (!key) return null;
  try {
    return await storage.read(key.replace(/^\/?Uploads\//i, ''));
  } catch {
    return null;
  }
}
