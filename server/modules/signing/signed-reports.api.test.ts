import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialCheckResponse } from '../../../common/contracts/credentials';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { samples } from '../../db/schema';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { leakCheckText } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { GENERATED_CREDENTIAL_KEYS_FILE, rotateCredentialKeys } from './credential-keys';
import { GENERATED_SIGNING_FILE } from './lab-certificates';

// Issued reports prove themselves offline (docs/product/signed-reports.md): a signed, tagged PDF and
// a verifiable credential per revision, both reflecting supersession and revocation.

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;
const work = mkdtempSync(join(tmpdir(), 'vl-signed-'));
const POPPLER = [PROGRAMS.pdfsig, PROGRAMS.pdfinfo, PROGRAMS.pdffonts];
const hasPoppler = requirePrograms(POPPLER, 'signed and tagged PDF checks');
const hasNss = hasPoppler && requirePrograms([PROGRAMS.certutil], 'trusted-signature check');

/** Runs a program and answers what it printed (pdfsig exits 0 whatever it finds: read the text). */
function run(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}

beforeAll(async () => {
  t = await startTestApp({}, { generateSigningKeys: true });
  [admin, staff, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Eleanor', lastName: 'Whitfield' }),
    createUser(t, { role: 'user', firstName: 'Olivia', lastName: 'Bennett' }),
  ]);
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

async function issuedReport(notes: string | null = '<h2>Findings</h2><ul><li>Hallmark legible</li></ul>') {
  const [row] = await t.db
    .insert(samples)
    .values({
      userId: owner.id,
      submitterName: 'Olivia Bennett',
      submitterEmail: owner.email,
      itemName: 'Victorian Silver Tea Service',
      category: 'furniture-decorative',
      description: 'Four-piece sterling tea service.',
      expertValuation: true,
      estimatedValueRange: '5000-10000',
      status: 'analysis',
      assignedStaffId: staff.id,
    })
    .returning();
  if (!row) throw new Error('no sample');
  const elements = [
    { element: 'Silver', percentage: 92.5, purity: '925', quality: 'Excellent', notes },
    { element: 'Copper', percentage: 7.5, purity: null, quality: 'Good', notes: null },
  ];
  const res = await call(t, 'POST', `/api/staff/samples/${row.id}/report`, {
    token: staff.token,
    json: { elements },
  });
  expect(res.status).toBe(200);
  const issued = res.body as { reportCode: string; revision: number; sha256: string };
  return { ...issued, sampleId: row.id, elements };
}

async function pdfOf(code: string): Promise<Buffer> {
  const res = (await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token })) as {
    status: number;
    buffer?: Buffer;
  };
  expect(res.status).toBe(200);
  if (!res.buffer) throw new Error('no PDF');
  return res.buffer;
}

const save = (name: string, bytes: Buffer | string) => {
  const file = join(work, name);
  writeFileSync(file, bytes);
  return file;
};
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function credentialOf(code: string, revision?: number) {
  const res = await call(
    t,
    'GET',
    `/api/reports/verify/${code}/credential${revision ? `?revision=${revision}` : ''}`,
  );
  expect(res.status).toBe(200);
  return res.text;
}

async function checkCredential(credential: unknown) {
  const res = await call(t, 'POST', '/api/reports/verify-credential', { json: { credential } });
  return res as typeof res & { body: CredentialCheckResponse };
}

async function documentCheck(code: string, pdf: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'report.pdf');
  const res = await call(t, 'POST', `/api/reports/verify/${code}/document`, { form });
  expect(res.status).toBe(200);
  return res.body as { result: string; revoked: boolean; supersededByRevision: number | null };
}

describe('the digital signature', () => {
  it('is a detached CMS signature pdfsig finds valid, over the stored bytes', async () => {
    const issued = await issuedReport();
    const pdf = await pdfOf(issued.reportCode);
    expect(sha256(pdf)).toBe(issued.sha256);
    expect(pdf.includes('/SubFilter /adbe.pkcs7.detached')).toBe(true);
    expect((await documentCheck(issued.reportCode, pdf)).result).toBe('current');
    if (!hasPoppler) return;
    const out = run('pdfsig', [save('signed.pdf', pdf)]);
    expect(out).toContain('Signature is Valid');
    expect(out).toContain('Signer Certificate Common Name: Heritage Valuation Laboratory');
    expect(out).toContain('Total document signed');
  });

  it('breaks when one byte changes', async () => {
    const issued = await issuedReport();
    const pdf = Buffer.from(await pdfOf(issued.reportCode));
    const at = pdf.indexOf('(Analysis Report ');
    expect(at).toBeGreaterThan(0);
    pdf[at + 1] = 'B'.charCodeAt(0);
    expect((await documentCheck(issued.reportCode, pdf)).result).toBe('unknown');
    if (!hasPoppler) return;
    const out = run('pdfsig', [save('changed.pdf', pdf)]);
    expect(out).not.toContain('Signature is Valid');
    expect(out).toMatch(/Digest Mismatch|Signature is Invalid/);
  });

  it('is trusted once the published lab root certificate is trusted', async () => {
    const root = await call(t, 'GET', '/.well-known/lab-root-ca.pem');
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('application/x-pem-file');
    expect(root.text).toMatch(/^-----BEGIN CERTIFICATE-----/);
    if (!hasNss) return;
    const issued = await issuedReport();
    const file = save('trusted.pdf', await pdfOf(issued.reportCode));
    expect(run('pdfsig', [file])).not.toContain('Certificate is Trusted');
    const db = join(work, 'nss');
    run('mkdir', ['-p', db]);
    run('certutil', ['-N', '-d', `sql:${db}`, '--empty-password']);
    run('certutil', [
      '-A',
      '-d',
      `sql:${db}`,
      '-n',
      'lab-root',
      '-t',
      'CT,C,C',
      '-i',
      save('root.pem', root.text),
    ]);
    const out = run('pdfsig', ['-nssdir', `sql:${db}`, file]);
    expect(out).toContain('Signature is Valid');
    expect(out).toContain('Certificate is Trusted');
  });

  it('keeps the generated keys under DATA_DIR, readable by the owner only', () => {
    for (const name of [GENERATED_SIGNING_FILE, GENERATED_CREDENTIAL_KEYS_FILE])
      expect(statSync(join(t.dataDir, name)).mode & 0o777).toBe(0o600);
  });
});

describe('the tagged PDF', () => {
  it.skipIf(!hasPoppler)(
    'is tagged, in reading order, with language, title, alt texts and embedded fonts',
    async () => {
      const issued = await issuedReport();
      const pdf = await pdfOf(issued.reportCode);
      const file = save('tagged.pdf', pdf);
      expect(run('pdfinfo', [file])).toMatch(/Tagged:\s+yes/);
      const tree = run('pdfinfo', ['-struct-text', file]);
      const order = [
        /^Document "Analysis Report /m,
        /^\s+H1 \(block\)\n\s+"Analysis Report"/m,
        /^\s+H2 \(block\)\n\s+"Sample Details"/m,
        /^\s+H2 \(block\)\n\s+"Analysis Results"/m,
        /^\s+Table \(block\)/m,
        /^\s+TH\n\s+"ELEMENT"/m,
        /^\s+"Silver"/m,
        /^\s+H4 \(block\)\n\s+"Findings"/m,
        /^\s+L \(block\)/m,
        /^\s+"Copper"/m,
        /^\s+TH\n\s+"Total"/m,
        /^\s+H2 \(block\)\n\s+"ANALYZED BY"/m,
        /^\s+H2 \(block\)\n\s+"VERIFY THIS REPORT"/m,
        /^\s+Figure/m,
      ];
      let from = 0;
      for (const re of order) {
        const m = re.exec(tree.slice(from));
        expect(m, `${re} after offset ${from}`).not.toBeNull();
        from += (m?.index ?? 0) + (m?.[0].length ?? 0);
      }
      // Catalog language, the title shown instead of the file name, PDF/UA-1, the QR code's alt text.
      const raw = pdf.toString('latin1');
      expect(raw).toContain('/Lang (en-US)');
      expect(raw).toContain('/DisplayDocTitle true');
      expect(raw).toContain('/Alt (QR code linking to http://lab.test/verify-report?code=');
      expect(run('pdfinfo', ['-meta', file])).toContain('<pdfuaid:part>1</pdfuaid:part>');
      const fonts = run('pdffonts', [file]).trim().split('\n').slice(2);
      expect(fonts.length).toBeGreaterThan(0);
      for (const line of fonts) expect(line).toMatch(/\s+yes\s+yes\s+yes\s+\d+\s+\d+$/);
    },
  );
});

describe('the verifiable credential', () => {
  it('verifies with jose against the published JWKS, and says what it should and no more', async () => {
    const issued = await issuedReport();
    const res = await call(t, 'GET', `/api/reports/verify/${issued.reportCode.toLowerCase()}/credential`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vc+jwt');
    const jwks = await call(t, 'GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const { payload, protectedHeader } = await jwtVerify(
      res.text,
      createLocalJWKSet(jwks.body as JSONWebKeySet),
      {
        typ: 'vc+jwt',
      },
    );
    expect(protectedHeader.alg).toBe('ES256');
    expect((jwks.body as JSONWebKeySet).keys.map((k) => k.kid)).toContain(protectedHeader.kid);
    expect(payload['@context']).toEqual(['https://www.w3.org/ns/credentials/v2']);
    expect(payload.type).toContain('VerifiableCredential');
    expect(payload.issuer).toMatchObject({ id: 'http://lab.test', name: 'Heritage Valuation Laboratory' });
    expect(payload.credentialSubject).toMatchObject({
      reportCode: issued.reportCode,
      revision: 1,
      item: 'Victorian Silver Tea Service',
      category: 'Furniture & Decorative Arts',
      pdfSha256: sha256(await pdfOf(issued.reportCode)),
    });
    // The analyst who signs the PDF, but nothing about the owner and no value.
    expect(payload.credentialSubject).toMatchObject({ analyzedBy: 'Eleanor Whitfield' });
    expect(payload.credentialSubject).not.toHaveProperty('reviewedBy');
    const text = leakCheckText(payload);
    for (const secret of ['Olivia', 'Bennett', owner.email, '5000']) expect(text).not.toContain(secret);
    // The public keys only.
    for (const k of (jwks.body as JSONWebKeySet).keys) expect(k).not.toHaveProperty('d');

    const answer = await checkCredential(res.text);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      genuine: true,
      status: 'current',
      reportCode: issued.reportCode,
      revision: 1,
    });
  });

  it('does not verify once its payload is changed, and forged or malformed input says not genuine', async () => {
    const issued = await issuedReport();
    const jwt = await credentialOf(issued.reportCode);
    const [header, payload, signature] = jwt.split('.');
    const claims = decodeJwt(jwt) as { credentialSubject: { item: string } };
    claims.credentialSubject.item = 'Fabergé egg';
    const forged = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    const jwks = (await call(t, 'GET', '/.well-known/jwks.json')).body as JSONWebKeySet;
    await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow();
    expect(payload).toBeTruthy();
    for (const bad of [forged, 'not a credential', `${header}.${payload}.`]) {
      const answer = await checkCredential(bad);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ genuine: false, status: 'not-genuine', reportCode: null });
      expect(answer.body.message).toMatch(/not/);
    }
    for (const bad of [undefined, '', '   ', 42, 'x'.repeat(20_001)])
      expect((await checkCredential(bad)).status).toBe(400);
  });

  it('an older revision says superseded (credential and PDF), the newer one current', async () => {
    const issued = await issuedReport();
    const first = await credentialOf(issued.reportCode);
    const firstPdf = await pdfOf(issued.reportCode);
    const again = await call(t, 'POST', `/api/staff/samples/${issued.sampleId}/report`, {
      token: staff.token,
      json: { elements: issued.elements.map((e) => ({ ...e, quality: 'Fair' })) },
    });
    expect(again.status).toBe(200);
    const old = await checkCredential(first);
    expect(old.body).toMatchObject({
      genuine: true,
      status: 'superseded',
      revision: 1,
      currentRevision: 2,
      supersededByRevision: 2,
    });
    expect((await checkCredential(await credentialOf(issued.reportCode))).body).toMatchObject({
      status: 'current',
      revision: 2,
    });
    expect((await checkCredential(await credentialOf(issued.reportCode, 1))).body.status).toBe('superseded');
    expect((await documentCheck(issued.reportCode, firstPdf)).result).toBe('superseded');
    expect(
      (await call(t, 'GET', `/api/reports/verify/${issued.reportCode}/credential?revision=3`)).status,
    ).toBe(404);
    expect(
      (await call(t, 'GET', `/api/reports/verify/${issued.reportCode}/credential?revision=x`)).status,
    ).toBe(400);
    expect((await call(t, 'GET', '/api/reports/verify/ZZZZZZZZ/credential')).status).toBe(404);
  });

  it('a revoked report answers revoked for its credential and its PDF', async () => {
    const issued = await issuedReport();
    const jwt = await credentialOf(issued.reportCode);
    const pdf = await pdfOf(issued.reportCode);
    const revoked = await call(t, 'POST', `/api/admin/reports/${issued.reportCode}/revoke`, {
      token: admin.token,
      json: { reason: 'Analysis error found' },
    });
    expect(revoked.status).toBe(200);
    const answer = await checkCredential(jwt);
    expect(answer.body).toMatchObject({
      genuine: true,
      status: 'revoked',
      revokedReason: 'Analysis error found',
    });
    expect(answer.body.revokedAt).toBeTruthy();
    expect((await documentCheck(issued.reportCode, pdf)).revoked).toBe(true);
  });
});

describe('credential key rotation', () => {
  it('keeps credentials signed by a retired key valid, and signs new ones with the new key', async () => {
    const issued = await issuedReport();
    const before = await credentialOf(issued.reportCode);
    const keyFile = join(t.dataDir, GENERATED_CREDENTIAL_KEYS_FILE);
    const newKid = await rotateCredentialKeys(keyFile);
    // A second instance on the same database and key file: it starts with the rotated keys.
    const config = loadConfig({
      DATA_DIR: t.dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'http://lab.test',
      CREDENTIAL_KEYS: keyFile,
    });
    const app = await buildApp({
      config,
      database: t.database,
      storage: t.storage,
      logger: false,
      serveWeb: false,
    });
    try {
      const inject = async (method: 'GET' | 'POST', url: string, payload?: object) =>
        app.inject({ method, url, ...(payload ? { payload } : {}) });
      const jwks = (await inject('GET', '/.well-known/jwks.json')).json() as JSONWebKeySet;
      expect(jwks.keys).toHaveLength(2);
      expect(jwks.keys[0]?.kid).toBe(newKid);
      const after = (await inject('GET', `/api/reports/verify/${issued.reportCode}/credential`)).body;
      const set = createLocalJWKSet(jwks);
      expect((await jwtVerify(after, set)).protectedHeader.kid).toBe(newKid);
      const old = await jwtVerify(before, set);
      expect(old.protectedHeader.kid).not.toBe(newKid);
      const answer = (await inject('POST', '/api/reports/verify-credential', { credential: before })).json();
      expect(answer).toMatchObject({ genuine: true, status: 'current', keyId: old.protectedHeader.kid });
    } finally {
      await app.close();
    }
  });
});
