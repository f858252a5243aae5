// `npm run bench -- reports`: issuing a report end to end, as POST …/report does it: a 10-element
// report with a lab logo and the analyst's signature is rendered (pdfkit, tagged PDF, embedded fonts,
// QR code), digitally signed (CMS, RSA 2048), stored with its SHA-256, and recorded with its elements
// and revision in one transaction, on a throwaway PostgreSQL. 200 issues after a warm-up; median and
// p99. Also the render alone and the signature alone. The load average is printed with the figures:
// the machine may be shared.
// Results go to the "Report issuing" section of docs/benchmarks.md.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { ReportElementInput } from '../common/contracts/reports';
import { loadConfig } from '../server/config';
import { createMailer } from '../server/mail/mailer';
import { openPostgres } from '../server/db/client';
import { labSettings, samples, users } from '../server/db/schema';
import { issueReport } from '../server/modules/reports/issue-report';
import { renderReportPdf } from '../server/modules/reports/report-pdf';
import type { AuthUser } from '../server/plugins/auth';
import { loadLabKeys } from '../server/modules/signing/lab-keys';
import { createDiskStorage } from '../server/storage/disk-storage';
import { startPostgresCluster } from '../tests/support/postgres';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 200);
const WARMUP = 15;
const TARGET_MEDIAN_MS = 100;

const require = createRequire(import.meta.url);
// Realistic images: ~95 KB PNG previews that ship with the font packages stand in for a logo and a signature.
const LOGO = readFileSync(require.resolve('@expo-google-fonts/noto-serif/700Bold/NotoSerif_700Bold.ttf.png'));
const SIGNATURE = readFileSync(
  require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf.png'),
);

const NAMES = ['Silver', 'Copper', 'Gold', 'Zinc', 'Nickel', 'Lead', 'Tin', 'Iron', 'Cadmium', 'Bismuth'];
const ELEMENTS: ReportElementInput[] = NAMES.map((element, i) => ({
  element,
  percentage: i === 0 ? 55.5 : 4.5,
  purity: i % 2 ? '925 sterling' : null,
  quality: (['Excellent', 'Good', 'Fair', 'Poor'] as const)[i % 4] ?? null,
  notes:
    i < 4
      ? '<h2>Findings</h2><p>Surface is <strong>bright</strong> with <em>minor</em> <u>wear</u>.</p><ul><li>Hallmark legible</li><li>No repairs</li></ul>'
      : null,
}));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

async function main() {
  const cluster = await startPostgresCluster();
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-reports-'));
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const database = await openPostgres(cluster.urlFor('bench'));
    const db = database.db;
    const storage = createDiskStorage(join(dataDir, 'files'));
    const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'https://lab.example', LOG_LEVEL: 'silent' });
    await storage.put('logo/bench.png', LOGO);
    await storage.put('signature/bench.png', SIGNATURE);
    await db.insert(labSettings).values({
      labName: 'Heritage Valuation Laboratory',
      address: '125 Antiquarian Row, Suite 400, Boston, MA 02108',
      phone: '+1 (617) 555-0142',
      certificationNumber: 'ISO/IEC 17025 No. 4411',
      logo: 'logo/bench.png',
    });
    const [staff] = await db
      .insert(users)
      .values({
        email: 'analyst@bench.lab',
        passwordHash: 'x',
        firstName: 'Eleanor',
        lastName: 'Whitfield',
        role: 'staff',
        signature: 'signature/bench.png',
      })
      .returning();
    if (!staff) throw new Error('no staff');
    const [owner] = await db
      .insert(users)
      .values({ email: 'owner@bench.lab', passwordHash: 'x', firstName: 'Olivia', lastName: 'Bennett' })
      .returning();
    if (!owner) throw new Error('no owner');
    const rows = await db
      .insert(samples)
      .values(
        Array.from({ length: ISSUES + WARMUP }, (_, i) => ({
          userId: owner.id,
          submitterName: 'Olivia Bennett',
          submitterEmail: owner.email,
          itemName: `Victorian Silver Tea Service ${i + 1}`,
          category: 'furniture-decorative',
          description: 'Four-piece sterling tea service with engraved crest, hallmarked London 1868.',
          expertValuation: true,
          authenticityCheck: true,
          status: 'analysis',
          assignedStaffId: staff.id,
        })),
      )
      .returning({ id: samples.id });
    const issuer: AuthUser = {
      id: staff.id,
      email: staff.email,
      role: 'staff',
      isActive: true,
      firstName: staff.firstName,
      lastName: staff.lastName,
    };
    const keys = await loadLabKeys(config, 'Heritage Valuation Laboratory');
    const deps = {
      config,
      db,
      storage,
      keys,
      mailer: createMailer({ config, secret: 'bench-secret-0123456789-0123456789' }),
    };

    const issueMs: number[] = [];
    let bytes = 0;
    for (const [i, row] of rows.entries()) {
      const t0 = performance.now();
      const issued = await issueReport(deps, issuer, row.id, ELEMENTS);
      const ms = performance.now() - t0;
      if (i >= WARMUP) issueMs.push(ms);
      if (i === WARMUP) bytes = (await storage.read(`reports/${issued.reportCode}-r1.pdf`)).length;
    }

    const renderMs: number[] = [];
    const signMs: number[] = [];
    for (let i = 0; i < ISSUES; i++) {
      const t0 = performance.now();
      const unsigned = await renderReportPdf({
        lab: {
          name: 'Heritage Valuation Laboratory',
          address: 'x',
          phone: 'y',
          email: null,
          certificationNumber: 'z',
          logo: LOGO,
        },
        sample: {
          displayId: 'VAL-0001',
          itemName: 'Victorian Silver Tea Service',
          category: 'Furniture & Decorative Arts',
          description: 'Four-piece sterling tea service.',
          submissionDate: new Date(),
          services: 'Expert Valuation',
          ownerName: 'Olivia Bennett',
        },
        elements: ELEMENTS.map((e) => ({
          ...e,
          purity: e.purity ?? null,
          quality: e.quality ?? null,
          notes: e.notes ?? null,
        })),
        analyst: { name: 'Eleanor Whitfield', signature: SIGNATURE },
        reportCode: 'ABCD2345',
        revision: 1,
        issuedAt: new Date(),
        verifyUrl: 'https://lab.example/verify-report?code=ABCD2345',
        signing: { signerName: keys.pdf.signerName, location: 'Boston', contactInfo: 'https://lab.example' },
      });
      const t1 = performance.now();
      renderMs.push(t1 - t0);
      await keys.pdf.sign(unsigned, new Date());
      signMs.push(performance.now() - t1);
    }
    await database.close();

    const median = pct(issueMs, 50);
    console.log(
      `report issuing, ${ISSUES} issues of a 10-element report with logo and signature (PDF ${Math.round(bytes / 1024)} KB):`,
    );
    console.log(
      `  issue (render + sign + store + transaction): median ${median.toFixed(1)} ms, p99 ${pct(issueMs, 99).toFixed(1)} ms`,
    );
    console.log(
      `  render alone:                                 median ${pct(renderMs, 50).toFixed(1)} ms, p99 ${pct(renderMs, 99).toFixed(1)} ms`,
    );
    console.log(
      `  sign alone:                                   median ${pct(signMs, 50).toFixed(1)} ms, p99 ${pct(signMs, 99).toFixed(1)} ms`,
    );
    console.log(
      `  load average (1/5/15 min) at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')}`,
    );
    console.log(
      `  target: issue median under ${TARGET_MEDIAN_MS} ms: ${median < TARGET_MEDIAN_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
