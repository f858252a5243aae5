import type PDFKitDocument from 'pdfkit';
import type QRCodeLib from 'qrcode';

// pdfkit, qrcode and the lab's parsed fonts are loaded with the first PDF a process draws, not when
// it starts: together about a third of a second of every start (docs/benchmarks.md, "Product
// start"), and a server may run for a long time, or a whole test file, without printing anything.

export type PdfLibs = {
  PDFDocument: typeof PDFKitDocument;
  QRCode: typeof QRCodeLib;
  /** The fonts every document registers (./fonts.ts), parsed once per process. */
  fonts: Record<string, Buffer>;
};

let loading: Promise<PdfLibs> | undefined;
let loaded: PdfLibs | undefined;

/** Loads the libraries once; every document is opened after this (./kit.ts, ./images.ts). */
export function loadPdfLibs(): Promise<PdfLibs> {
  loading ??= Promise.all([import('pdfkit'), import('qrcode'), import('./fonts')]).then(
    ([pdfkit, qrcode, fonts]) =>
      (loaded = { PDFDocument: pdfkit.default, QRCode: qrcode.default, fonts: fonts.FONTS }),
  );
  return loading;
}

/** The loaded libraries, for drawing code that runs inside a document opened by `loadPdfLibs`' callers. */
export function pdfLibs(): PdfLibs {
  if (!loaded) throw new Error('the PDF libraries are used before a document was opened');
  return loaded;
}
