import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterAll, describe, expect, it } from 'vitest';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { renderReportPdf, type ReportPdfInput } from '../reports/report-pdf';
import {
  asciiName,
  GENERATED_SIGNING_FILE,
  generateLabCertificates,
  generatedIdentity,
  p12Identity,
  SigningConfigError,
} from './lab-certificates';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import { createPdfSigner, detachedCms } from './pdf-signer';

const work = mkdtempSync(join(tmpdir(), 'vl-signing-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a program and answers what it printed (pdfsig exits 0 whatever it finds: read the text). */
function run(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}

const input = (signerName: string): ReportPdfInput => ({
  lab: {
    name: 'Laboratoire Hélène',
    address: '1 Rue de la Paix, Paris',
    phone: '+33 1 00 00 00 00',
    email: null,
    certificationNumber: null,
    logo: null,
  },
  sample: {
    displayId: 'VAL-0042',
    itemName: 'Louis XV commode',
    category: 'Furniture & Decorative Arts',
    description: '',
    submissionDate: new Date('2026-01-02T00:00:00Z'),
    services: 'Expert Valuation',
    ownerName: 'Client',
  },
  elements: [{ element: 'Oak', percentage: 100, purity: null, quality: null, notes: null }],
  analyst: null,
  reportCode: 'ABCD2345',
  revision: 1,
  issuedAt: new Date(),
  verifyUrl: 'https://lab.example/verify-report?code=ABCD2345',
  signing: { signerName, location: 'Paris', contactInfo: 'https://lab.example' },
});

describe('certificate names', () => {
  it('are ASCII, accents dropped', () => {
    expect(asciiName('Laboratoire Hélène — Zürich')).toBe('Laboratoire Helene Zurich');
    expect(asciiName('Лаборатория')).toBe('Valuation Laboratory');
  });
});

describe('the signing identity from a PKCS#12 file (SIGNING_P12)', () => {
  const made = generateLabCertificates('Laboratoire Hélène');
  const key = forge.pki.privateKeyFromPem(made.signingPrivateKey);
  const chain = [made.signingCertificate, made.rootCertificate].map((p) => forge.pki.certificateFromPem(p));
  const p12 = Buffer.from(
    forge.asn1
      .toDer(forge.pkcs12.toPkcs12Asn1(key, chain, 'correct horse', { algorithm: '3des' }))
      .getBytes(),
    'binary',
  );

  it('signs PDFs with its key and publishes its self-signed root', async () => {
    const identity = p12Identity(p12, 'correct horse');
    expect(identity.source).toBe('p12');
    expect(identity.signerName).toBe('Laboratoire Helene');
    expect(identity.rootCaPem.replace(/\r/g, '')).toBe(made.rootCertificate.replace(/\r/g, ''));
    const signer = createPdfSigner(identity);
    const pdf = await signer.sign(await renderReportPdf(input(identity.signerName)), new Date());
    expect(pdf.includes('/SubFilter /adbe.pkcs7.detached')).toBe(true);
    if (!requirePrograms([PROGRAMS.pdfsig], 'PKCS#12 signature check')) return;
    const file = join(work, 'p12.pdf');
    writeFileSync(file, pdf);
    const out = run('pdfsig', [file]);
    expect(out).toContain('Signature is Valid');
    expect(out).toContain('Signer Certificate Common Name: Laboratoire Helene');
  });

  it('refuses a wrong passphrase or a file that is not PKCS#12 with a clear error', () => {
    expect(() => p12Identity(p12, 'wrong')).toThrow(SigningConfigError);
    expect(() => p12Identity(Buffer.from('not a p12'), '')).toThrow(/SIGNING_P12 cannot be read/);
  });
});

describe('filling the signature placeholder', () => {
  it('writes the very bytes @signpdf/signpdf writes, leaving the unsigned file as it was', async () => {
    const identity = generatedIdentity(join(work, 'fill'), 'Laboratoire Hélène');
    const at = new Date('2026-03-01T10:00:00Z');
    const unsigned = await renderReportPdf(input(identity.signerName));
    const before = Buffer.from(unsigned);
    const ours = await createPdfSigner(identity).sign(unsigned, at);
    expect(unsigned.equals(before)).toBe(true);
    class Reference extends Signer {
      override async sign(content: Buffer) {
        return detachedCms(identity, content, at);
      }
    }
    const reference = await new SignPdf().sign(before, new Reference());
    expect(ours.length).toBe(reference.length);
    expect(ours.equals(reference)).toBe(true);
    expect(ours.includes('/ByteRange [0 ')).toBe(true);
  });
});

describe('generated keys under DATA_DIR', () => {
  it('are created once, mode 0600, and reused on the next start', () => {
    const dir = join(work, 'once');
    const first = generatedIdentity(dir, 'Heritage Valuation Laboratory');
    const file = join(dir, GENERATED_SIGNING_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = generatedIdentity(dir, 'Another Name');
    expect(second.rootCaPem).toBe(first.rootCaPem);
    expect(second.signerName).toBe('Heritage Valuation Laboratory');
  });

  it('keep no root CA key: the root signed the signing certificate once and may only sign end certificates', () => {
    const dir = join(work, 'no-root-key');
    const identity = generatedIdentity(dir, 'Heritage Valuation Laboratory');
    const text = readFileSync(join(dir, GENERATED_SIGNING_FILE), 'utf8');
    const stored = JSON.parse(text) as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual([
      'rootCertificate',
      'signingCertificate',
      'signingPrivateKey',
    ]);
    // One private key in the file, and it is the signing certificate's.
    expect(text.match(/BEGIN PRIVATE KEY/g)).toHaveLength(1);
    const root = forge.pki.certificateFromPem(identity.rootCaPem);
    const bc = root.getExtension('basicConstraints') as {
      cA: boolean;
      pathLenConstraint?: number;
      critical: boolean;
    };
    expect(bc).toMatchObject({ cA: true, pathLenConstraint: 0, critical: true });
    const ku = root.getExtension('keyUsage') as Record<string, boolean>;
    expect(ku).toMatchObject({ keyCertSign: true, cRLSign: true, critical: true });
    expect(ku.digitalSignature ?? false).toBe(false);
    const leaf = forge.pki.certificateFromPem(stored.signingCertificate ?? '');
    expect(root.verify(leaf)).toBe(true);
  });

  it('remove the root CA key an older version left in DATA_DIR, and keep the same identity', () => {
    const dir = join(work, 'old-root-key');
    const first = generatedIdentity(dir, 'Heritage Valuation Laboratory');
    const file = join(dir, GENERATED_SIGNING_FILE);
    const old = {
      ...JSON.parse(readFileSync(file, 'utf8')),
      rootPrivateKey: '-----BEGIN PRIVATE KEY-----\nold\n-----END PRIVATE KEY-----\n',
    };
    writeFileSync(file, JSON.stringify(old), { mode: 0o600 });
    const again = generatedIdentity(dir, 'Heritage Valuation Laboratory');
    expect(again.rootCaPem).toBe(first.rootCaPem);
    expect(again.serialHex).toBe(first.serialHex);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('rootPrivateKey');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('are the same for two instances starting at the same moment on a shared DATA_DIR', async () => {
    const dir = join(work, 'race');
    const script = `
      import { generatedIdentity } from ${JSON.stringify(join(import.meta.dirname, 'lab-certificates.ts'))};
      process.stdout.write(generatedIdentity(process.argv[1], 'Heritage Valuation Laboratory').rootCaPem);
    `;
    const start = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir]);
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => process.stderr.write(c));
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const roots = await Promise.all([start(), start(), start()]);
    expect(roots[0]).toMatch(/BEGIN CERTIFICATE/);
    expect(new Set(roots).size).toBe(1);
    const stored = JSON.parse(readFileSync(join(dir, GENERATED_SIGNING_FILE), 'utf8')) as {
      rootCertificate: string;
    };
    expect(stored.rootCertificate.replace(/\r/g, '')).toBe(roots[0]?.replace(/\r/g, ''));
  }, 60_000);
});
