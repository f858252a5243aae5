import { openPdf } from '../../pdf/kit';

// The item label (docs/product/custody.md): 4 × 2 inches, the size of common thermal label printers.
// The VAL id is printed large, as a QR code and as a Code 128 barcode, so a handheld scanner at the
// scan box (which types what it reads and presses Enter) opens the sample.

export type LabelInput = {
  displayId: string;
  itemName: string;
  ownerSurname: string;
  /** 'March 3, 2026', or null before the item arrived. */
  receivedOn: string | null;
  labName: string;
};

const WIDTH = 288;
const HEIGHT = 144;
const PAD = 8;
const QR_SIZE = 92;

/** The Code 128 barcode as a PNG: 3 pixels per module, so it stays sharp when printed. */
async function code128Png(text: string): Promise<Buffer> {
  // Loaded with the first label, not when the server starts (../../pdf/pdf-libs.ts says why).
  const { default: bwipjs } = await import('bwip-js/node');
  return bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: 3,
    height: 9,
    includetext: false,
    paddingwidth: 0,
    paddingheight: 0,
  });
}

export async function renderLabelPdf(input: LabelInput): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode');
  const [qr, barcode] = await Promise.all([
    QRCode.toBuffer(input.displayId, { type: 'png', margin: 1, scale: 8, errorCorrectionLevel: 'M' }),
    code128Png(input.displayId),
  ]);
  const { doc, done } = await openPdf({
    size: [WIDTH, HEIGHT],
    margin: 0,
    pdfVersion: '1.7',
    lang: 'en-US',
    displayTitle: true,
    info: { Title: `Label ${input.displayId}`, Author: input.labName, Subject: input.itemName },
  });

  // QR code on the left, the words on the right, the barcode across the bottom.
  doc.image(qr, PAD, PAD, { width: QR_SIZE, height: QR_SIZE });
  const textLeft = PAD + QR_SIZE + 8;
  const textWidth = WIDTH - textLeft - PAD;
  doc.fillColor('#000000').font('bold').fontSize(18).text(input.displayId, textLeft, PAD, {
    width: textWidth,
    lineBreak: false,
  });
  doc
    .font('bold')
    .fontSize(9)
    .text(input.itemName, textLeft, PAD + 24, { width: textWidth, height: 24, ellipsis: true });
  doc
    .font('regular')
    .fontSize(8)
    .text(`Owner: ${input.ownerSurname || '—'}`, textLeft, PAD + 50, { width: textWidth, lineBreak: false })
    .text(`Received: ${input.receivedOn ?? 'not yet'}`, textLeft, PAD + 62, {
      width: textWidth,
      lineBreak: false,
    })
    .text(input.labName, textLeft, PAD + 76, { width: textWidth, height: 12, ellipsis: true });
  const barTop = PAD + QR_SIZE + 4;
  doc.image(barcode, PAD, barTop, { width: WIDTH - PAD * 2, height: HEIGHT - barTop - PAD });
  doc.end();
  return done;
}
