import { createHash, sign } from 'node:crypto';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import forge from 'node-forge';
import type { PdfSigningIdentity } from './lab-certificates';

// A detached CMS signature (adbe.pkcs7.detached) over a PDF's byte range. @signpdf finds the byte
// range and splices the signature in; the CMS SignedData is assembled here with Node doing the
// hashing and the RSA signature, because parsing a PKCS#12 and signing in pure JavaScript for every
// report (what @signpdf/signer-p12 does) costs more than the whole rest of issuing.

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

/** The CMS SignedData for `content`, detached (the content itself is not included). */
export function detachedCms(identity: PdfSigningIdentity, content: Buffer, signingTime: Date): Buffer {
  const digest = createHash('sha256').update(content).digest();
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

class LabSigner extends Signer {
  constructor(private readonly identity: PdfSigningIdentity) {
    super();
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    return detachedCms(this.identity, pdfBuffer, signingTime ?? new Date());
  }
}

export type PdfSigner = {
  /** Signs a PDF that carries a signature placeholder; answers the complete signed file. */
  sign(pdfWithPlaceholder: Buffer, signingTime: Date): Promise<Buffer>;
  signerName: string;
};

export function createPdfSigner(identity: PdfSigningIdentity): PdfSigner {
  const signer = new LabSigner(identity);
  const signPdf = new SignPdf();
  return {
    signerName: identity.signerName,
    sign: (pdf, signingTime) => signPdf.sign(pdf, signer, signingTime),
  };
}
