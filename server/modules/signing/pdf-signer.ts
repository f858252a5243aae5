import { createHash, sign } from 'node:crypto';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER } from '@signpdf/utils';
import forge from 'node-forge';
import type { PdfSigningIdentity } from './lab-certificates';

// A detached CMS signature (adbe.pkcs7.detached) over a PDF's byte range. The CMS SignedData is
// assembled here with Node doing the hashing and the RSA signature, because parsing a PKCS#12 and
// signing in pure JavaScript for every report (what @signpdf/signer-p12 does) costs more than the
// whole rest of issuing; the byte range and signature are filled in as @signpdf/signpdf would
// (`fillSignature`).

const { asn1 } = forge;
const { Class, Type } = asn1;

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
};

const bin = (b: Buffer) => b.toString('binary');
const oid = (o: string) => asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(o).getBytes());
const seq = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(Class.UNIVERSAL, Type.SET, true, items);
const nul = () => asn1.create(Class.UNIVERSAL, Type.NULL, false, '');
const int = (hex: string) =>
  asn1.create(Class.UNIVERSAL, Type.INTEGER, false, forge.util.hexToBytes(hex.length % 2 ? `0${hex}` : hex));
const octets = (b: Buffer) => asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, bin(b));
const toDer = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const fromDer = (b: Buffer) => asn1.fromDer(bin(b));
const algorithm = (o: string) => seq([oid(o), nul()]);

function attribute(type: string, value: forge.asn1.Asn1) {
  return seq([oid(type), set([value])]);
}

/** The CMS SignedData for `content` (its parts in order), detached (the content itself is not included). */
export function detachedCms(
  identity: PdfSigningIdentity,
  content: Buffer | Buffer[],
  signingTime: Date,
): Buffer {
  const hash = createHash('sha256');
  for (const part of Array.isArray(content) ? content : [content]) hash.update(part);
  const digest = hash.digest();
  // DER sorts a SET OF by the members' encodings; verifiers hash the attributes as encoded.
  const attributes = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(
      OID.signingTime,
      asn1.create(Class.UNIVERSAL, Type.UTCTIME, false, asn1.dateToUtcTime(signingTime)),
    ),
    attribute(OID.messageDigest, octets(digest)),
  ]
    .map(toDer)
    .sort(Buffer.compare);
  // What is signed: the attributes as a SET (RFC 5652 §5.4); stored as [0] IMPLICIT.
  const signedAttributes = Buffer.concat(attributes);
  const setHeader = toDer(set([])).subarray(0, 1);
  const asSet = Buffer.concat([setHeader, derLength(signedAttributes.length), signedAttributes]);
  const signature = sign('sha256', asSet, identity.privateKey);

  const signerInfo = seq([
    int('01'),
    seq([fromDer(identity.issuerDer), int(identity.serialHex)]),
    algorithm(OID.sha256),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, attributes.map(fromDer)),
    algorithm(OID.rsaEncryption),
    octets(signature),
  ]);
  const signedData = seq([
    int('01'),
    set([algorithm(OID.sha256)]),
    seq([oid(OID.data)]),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, identity.chainDer.map(fromDer)),
    set([signerInfo]),
  ]);
  return toDer(seq([oid(OID.signedData), asn1.create(Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const BYTE_RANGE_PLACEHOLDER = Buffer.from(
  `/ByteRange [0 /${DEFAULT_BYTE_RANGE_PLACEHOLDER} /${DEFAULT_BYTE_RANGE_PLACEHOLDER} /${DEFAULT_BYTE_RANGE_PLACEHOLDER}]`,
);

/**
 * Fills a PDF's signature placeholder (../signing/pdf-placeholder.ts) with the byte range and the
 * signature over it: the very bytes @signpdf/signpdf writes (the trailing newline dropped, the range
 * padded with spaces, the CMS in hex padded with zeros), but found from the end of the file — where
 * pdfkit writes it, after the photos — and patched into one copy. @signpdf copied the whole file
 * four times and scanned it from the start: with six photos, 2.5 MB each way, 3 % of issuing plus
 * much of its garbage collection (docs/benchmarks.md).
 */
export function fillSignature(input: Buffer, signRanges: (ranges: Buffer[]) => Buffer): Buffer {
  let end = input.length;
  if (input[end - 1] === 0x0a) end--;
  if (input[end - 1] === 0x0d) end--;
  const eof = input.toString('latin1', end - 6, end);
  if (eof !== '\n%%EOF' && eof !== '\r%%EOF') throw new Error('A PDF file must end with an EOF line.');
  // One copy, so the caller's buffer stays the unsigned file.
  const pdf = Buffer.from(input.subarray(0, end));
  const at = pdf.lastIndexOf(BYTE_RANGE_PLACEHOLDER);
  const contents = at < 0 ? -1 : pdf.indexOf('/Contents ', at + BYTE_RANGE_PLACEHOLDER.length);
  const open = contents < 0 ? -1 : pdf.indexOf('<', contents);
  const close = open < 0 ? -1 : pdf.indexOf('>', open);
  if (close < 0) throw new Error('No signature placeholder in the PDF');
  const range = `/ByteRange [0 ${open} ${close + 1} ${pdf.length - close - 1}]`;
  if (range.length > BYTE_RANGE_PLACEHOLDER.length) throw new Error('The byte range does not fit');
  pdf.write(range.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '), at, 'latin1');
  const signature = signRanges([pdf.subarray(0, open), pdf.subarray(close + 1)]);
  const hexLength = close - open - 1;
  if (signature.length * 2 > hexLength)
    throw new Error(`Signature exceeds placeholder length: ${signature.length * 2} > ${hexLength}`);
  pdf.write(signature.toString('hex').padEnd(hexLength, '0'), open + 1, 'latin1');
  return pdf;
}

export type PdfSigner = {
  /** Signs a PDF that carries a signature placeholder; answers the complete signed file. */
  sign(pdfWithPlaceholder: Buffer, signingTime: Date): Promise<Buffer>;
  signerName: string;
};

export function createPdfSigner(identity: PdfSigningIdentity): PdfSigner {
  return {
    signerName: identity.signerName,
    sign: async (pdf, signingTime) =>
      fillSignature(pdf, (ranges) => detachedCms(identity, ranges, signingTime)),
  };
}
