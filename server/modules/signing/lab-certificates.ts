import {
  constants,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  privateEncrypt,
  randomBytes,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import { readOrCreatePrivateFile, replacePrivateFile } from '../../storage/private-files';

// The lab's document-signing identity (docs/product/signed-reports.md): either the PKCS#12 file an
// operator provides (SIGNING_P12, shared by every instance), or a lab root certificate and a
// signing certificate generated once under DATA_DIR.

export type PdfSigningIdentity = {
  /** The signing key, as a Node key object: signatures are made by Node's own crypto. */
  privateKey: KeyObject;
  /** DER of the signing certificate, then the rest of its chain (intermediates and root). */
  chainDer: Buffer[];
  /** Issuer name (DER) and serial number of the signing certificate, for the CMS SignerInfo. */
  issuerDer: Buffer;
  serialHex: string;
  /** The root certificate people are told to trust, PEM. */
  rootCaPem: string;
  /** The signing certificate's common name, shown by PDF readers as the signer. */
  signerName: string;
  source: 'p12' | 'generated';
};

export const GENERATED_SIGNING_FILE = 'lab-signing.json';

/** Certificate names stay ASCII: node-forge mangles anything else in a distinguished name. */
export function asciiName(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return ascii || 'Valuation Laboratory';
}

const der = (cert: forge.pki.Certificate) =>
  Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');

/** A forge-compatible private key whose signing is done by Node (forge's pure-JS RSA is slow). */
function nodeSigner(key: KeyObject): forge.pki.rsa.PrivateKey {
  return {
    sign(md: forge.md.MessageDigest) {
      // forge hands over the finished digest; RSASSA-PKCS1-v1_5 over a SHA-256 DigestInfo.
      const digestInfo = Buffer.concat([
        Buffer.from('3031300d060960864801650304020105000420', 'hex'),
        Buffer.from(md.digest().getBytes(), 'binary'),
      ]);
      // The DigestInfo is built already, so the key encrypts it (crypto.sign() would hash again).
      return privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString('binary');
    },
  } as unknown as forge.pki.rsa.PrivateKey;
}

function newKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    forgePublic: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

const serial = () => {
  // Positive, 16 random bytes.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
};

type GeneratedFile = {
  rootCertificate: string;
  signingCertificate: string;
  signingPrivateKey: string;
  /** Only in files written by versions before the root key was thrown away; removed when read. */
  rootPrivateKey?: string;
};

/**
 * Makes a lab root CA (30 years) and a document-signing certificate it issues (25 years). The root's
 * private key signs that one certificate and is then thrown away: nothing on the server can issue
 * another certificate under the lab's root (docs/decisions/0027-security-low-items.md). The root
 * may sign end-entity certificates only (path length 0) and only certificates and CRLs (key usage).
 */
export function generateLabCertificates(labName: string, now = new Date()): GeneratedFile {
  const name = asciiName(labName);
  const years = (n: number) =>
    new Date(Date.UTC(now.getUTCFullYear() + n, now.getUTCMonth(), now.getUTCDate()));
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);

  const root = newKeyPair();
  const rootCert = forge.pki.createCertificate();
  rootCert.publicKey = root.forgePublic;
  rootCert.serialNumber = serial();
  rootCert.validity.notBefore = notBefore;
  rootCert.validity.notAfter = years(30);
  const rootDn = [
    { name: 'commonName', value: `${name} Root CA` },
    { name: 'organizationName', value: name },
  ];
  rootCert.setSubject(rootDn);
  rootCert.setIssuer(rootDn);
  rootCert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  rootCert.sign(nodeSigner(root.privateKey), forge.md.sha256.create());

  const leaf = newKeyPair();
  const leafCert = forge.pki.createCertificate();
  leafCert.publicKey = leaf.forgePublic;
  leafCert.serialNumber = serial();
  leafCert.validity.notBefore = notBefore;
  leafCert.validity.notAfter = years(25);
  leafCert.setSubject([
    { name: 'commonName', value: name },
    { name: 'organizationName', value: name },
    { name: 'organizationalUnitName', value: 'Report signing' },
  ]);
  leafCert.setIssuer(rootDn);
  leafCert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', emailProtection: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: rootCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  leafCert.sign(nodeSigner(root.privateKey), forge.md.sha256.create());

  return {
    rootCertificate: forge.pki.certificateToPem(rootCert),
    signingCertificate: forge.pki.certificateToPem(leafCert),
    signingPrivateKey: leaf.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function identityOf(
  key: KeyObject,
  signing: forge.pki.Certificate,
  others: forge.pki.Certificate[],
  source: PdfSigningIdentity['source'],
): PdfSigningIdentity {
  const selfSigned = (c: forge.pki.Certificate) => c.subject.hash === c.issuer.hash;
  // The root: the self-signed certificate of the chain, else the top one we were given.
  const root = [signing, ...others].find(selfSigned) ?? others[others.length - 1] ?? signing;
  const cn = signing.subject.getField('CN') as { value?: string } | null;
  return {
    privateKey: key,
    chainDer: [der(signing), ...others.map(der)],
    issuerDer: Buffer.from(
      forge.asn1.toDer(forge.pki.distinguishedNameToAsn1(signing.issuer)).getBytes(),
      'binary',
    ),
    serialHex: signing.serialNumber,
    rootCaPem: forge.pki.certificateToPem(root),
    signerName: cn?.value ?? 'Laboratory',
    source,
  };
}

/** The generated identity under DATA_DIR, created on first start (see readOrCreatePrivateFile). */
export function generatedIdentity(dataDir: string, labName: string): PdfSigningIdentity {
  const text = readOrCreatePrivateFile(join(dataDir, GENERATED_SIGNING_FILE), () =>
    JSON.stringify(generateLabCertificates(labName), null, 2),
  );
  const file = JSON.parse(text) as GeneratedFile;
  if (file.rootPrivateKey !== undefined) {
    // Written by an older version, which kept the root's key: it is removed now. Every instance
    // writes the same content, so instances starting together on a shared DATA_DIR agree.
    const { rootPrivateKey: _dropped, ...kept } = file;
    replacePrivateFile(join(dataDir, GENERATED_SIGNING_FILE), JSON.stringify(kept, null, 2));
  }
  return identityOf(
    createPrivateKey(file.signingPrivateKey),
    forge.pki.certificateFromPem(file.signingCertificate),
    [forge.pki.certificateFromPem(file.rootCertificate)],
    'generated',
  );
}

export class SigningConfigError extends Error {}

const BAG = {
  shroudedKey: '1.2.840.113549.1.12.10.1.2',
  key: '1.2.840.113549.1.12.10.1.1',
  cert: '1.2.840.113549.1.12.10.1.3',
};

/** The identity in a PKCS#12 file: its RSA key, the certificate matching it, and the rest as chain. */
export function p12Identity(p12: Buffer, passphrase: string): PdfSigningIdentity {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, passphrase);
  } catch (err) {
    throw new SigningConfigError(
      `SIGNING_P12 cannot be read (wrong SIGNING_P12_PASSPHRASE, or not a PKCS#12 file): ${(err as Error).message}`,
    );
  }
  const keyBags = [
    ...(parsed.getBags({ bagType: BAG.shroudedKey })[BAG.shroudedKey] ?? []),
    ...(parsed.getBags({ bagType: BAG.key })[BAG.key] ?? []),
  ];
  const key = keyBags.find((b) => b.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new SigningConfigError('SIGNING_P12 holds no RSA private key');
  const certs = (parsed.getBags({ bagType: BAG.cert })[BAG.cert] ?? [])
    .map((b) => b.cert)
    .filter((c): c is forge.pki.Certificate => Boolean(c));
  const matches = (c: forge.pki.Certificate) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
  };
  const signing = certs.find(matches);
  if (!signing) throw new SigningConfigError('SIGNING_P12 holds no certificate for its private key');
  const nodeKey = createPrivateKey(forge.pki.privateKeyToPem(key));
  return identityOf(
    nodeKey,
    signing,
    certs.filter((c) => c !== signing),
    'p12',
  );
}

export function loadPdfSigningIdentity(opts: {
  p12Path: string | undefined;
  p12Passphrase: string;
  dataDir: string;
  labName: string;
}): PdfSigningIdentity {
  if (opts.p12Path) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(opts.p12Path);
    } catch (err) {
      throw new SigningConfigError(`SIGNING_P12 cannot be read: ${(err as Error).message}`);
    }
    return p12Identity(bytes, opts.p12Passphrase);
  }
  return generatedIdentity(opts.dataDir, opts.labName);
}
