import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, SUBFILTER_ADOBE_PKCS7_DETACHED } from '@signpdf/utils';

// The empty signature a pdfkit document carries until it is signed: a signature dictionary with a
// zero-filled /Contents and a /ByteRange placeholder, reached from the AcroForm through an invisible
// signature field. Written here rather than with @signpdf/placeholder-pdfkit because a tagged,
// accessible PDF needs the field described (/TU) and its widget hidden, which that helper cannot do.

/** Bytes reserved for the CMS signature; ours (two certificates) needs about 2.5 KB. */
export const SIGNATURE_LENGTH = 8192;

/** The parts of pdfkit's document this needs that its type definitions do not describe. */
type Ref = { data: Record<string, unknown>; end(): void };
type PdfkitInternals = { _root: { data: { AcroForm?: Ref } }; ref(data: object): Ref };

export function addSignaturePlaceholder(
  doc: PDFKit.PDFDocument,
  opts: { name: string; reason: string; location: string; contactInfo: string; signingTime: Date },
) {
  const internals = doc as unknown as PdfkitInternals;
  const signature = internals.ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
    ByteRange: [
      0,
      DEFAULT_BYTE_RANGE_PLACEHOLDER,
      DEFAULT_BYTE_RANGE_PLACEHOLDER,
      DEFAULT_BYTE_RANGE_PLACEHOLDER,
    ],
    Contents: Buffer.alloc(SIGNATURE_LENGTH),
    Reason: new String(opts.reason),
    M: opts.signingTime,
    ContactInfo: new String(opts.contactInfo),
    Name: new String(opts.name),
    Location: new String(opts.location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' } },
  });
  doc.initForm();
  const form = internals._root.data.AcroForm;
  if (!form) throw new Error('pdfkit did not create the AcroForm');
  const widget = internals.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    // Invisible and hidden: the signature shows in a reader's signature panel, not on the page.
    Rect: [0, 0, 0, 0],
    F: 2 | 128,
    V: signature,
    T: new String('Signature1'),
    TU: new String(`Digital signature of ${opts.name}`),
    P: doc.page.dictionary,
  });
  (doc.page.annotations as Ref[]).push(widget);
  form.data = {
    Type: 'AcroForm',
    SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY,
    Fields: [widget],
    DR: form.data.DR,
  };
  signature.end();
  widget.end();
}
