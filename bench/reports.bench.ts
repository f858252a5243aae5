// `npm run bench -- reports`: issuing a full valuation report end to end, as POST …/report does it
// (issueReport, the code the route runs after validating the body): a painting's report with a value
// range, authenticity and condition verdicts, identification, summary and a long narrative, a
// 10-element table (four with formatted notes), SIX of the sample's photos, the lab logo and the
// analyst's signature, rendered (pdfkit, tagged PDF, embedded fonts, QR code), digitally signed
// (CMS, RSA 2048), stored with its SHA-256 and recorded in one transaction, on a throwaway
// PostgreSQL. The photos are real 12 MP JPEGs that went through the product's photo pipeline
// (makeCopiesOfPhoto), so each report embeds the display copies, as in production.
// 200 issues after 15 warm-up issues; median and p99; also render alone and sign alone.
// Prints the load average and a ready-to-paste row for docs/benchmarks.md ("Report issuing");
// exits 1 when the median misses the target.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { issueReportBody, type ReportElementInput } from '../common/contracts/reports';
import { loadConfig } from '../server/config';
import { openPostgres } from '../server/db/client';
import { labSettings, sampleFiles, samples, users } from '../server/db/schema';
import { createMailer } from '../server/mail/mailer';
import { makeCopiesOfPhoto, photoCopyKey } from '../server/modules/photos/make-photo-copies';
import { issueReport, reportContentOf } from '../server/modules/reports/issue-report';
import { renderReportPdf } from '../server/modules/reports/report-pdf';
import { loadLabKeys } from '../server/modules/signing/lab-keys';
import type { AuthUser } from '../server/plugins/auth';
import { createDiskStorage } from '../server/storage/disk-storage';
import { appraisalAssignment, comparableSale, valuationReport } from '../tests/support/factories';
import { startPostgresCluster } from '../tests/support/postgres';
import { startProfile } from './cpu-profile';
import { phoneLikeJpeg } from './phone-photo';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 200);
const WARMUP = 15;
const PHOTOS = 6;
const TARGET_MEDIAN_MS = 150;

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

/** A narrative of about 3,000 characters: what an expert writes for a painting. */
const paragraph = (topic: string) =>
  `<p>${topic}: the canvas, stretcher and ground were examined under raking light, ultraviolet fluorescence and ` +
  '<strong>infrared reflectography</strong>. The handling of the sky, the <em>impasto</em> in the foliage and the ' +
  'palette agree with securely attributed works of the same decade; comparable sales at the major auction houses ' +
  'over the last three years bracket the value stated below.</p>';
const NARRATIVE = {
  summary: [
    paragraph('Summary'),
    paragraph('Provenance'),
    '<ul><li>Relined once</li><li>Original stretcher</li></ul>',
  ].join(''),
  basis: [paragraph('Basis of valuation'), paragraph('Market')].join(''),
  rationale: [paragraph('Authenticity'), paragraph('Signature')].join(''),
  notes: [
    paragraph('Condition'),
    '<ol><li>Minor craquelure</li><li>No losses</li><li>Varnish slightly yellowed</li></ol>',
  ].join(''),
};

/** The issue body for a sample with these photos, parsed like the route parses it. */
const bodyFor = (photoIds: number[]) => {
  const base = valuationReport(photoIds);
  return issueReportBody.parse({
    ...base,
    elements: ELEMENTS,
    summary: NARRATIVE.summary,
    valuation: base.valuation && { ...base.valuation, basis: NARRATIVE.basis },
    authenticity: base.authenticity && { ...base.authenticity, rationale: NARRATIVE.rationale },
    condition: base.condition && { ...base.condition, notes: NARRATIVE.notes },
    // The full appraisal (docs/product/appraisal-report.md): its assignment with long texts and twelve
    // comparables in three currencies, one showing a photo of the sample.
    assignment: appraisalAssignment({ scopeOfWork: NARRATIVE.summary, limitingConditions: NARRATIVE.basis }),
    comparables: Array.from({ length: 12 }, (_, i) =>
      comparableSale(i + 1, { photoFileId: i === 0 ? (photoIds[0] ?? null) : null }),
    ),
  });
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function main() {
  const loadAtStart = load();
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
          itemName: `River Landscape with Mill ${i + 1}`,
          category: 'artwork-paintings',
          description: 'Oil on canvas, signed lower left, in a gilt frame.',
          expertValuation: true,
          authenticityCheck: true,
          status: 'analysis',
          assignedStaffId: staff.id,
        })),
      )
      .returning({ id: samples.id });

    // Six photos per sample, as a submission stores them. The first sample's go through the photo
    // pipeline (original stored, makeCopiesOfPhoto makes and stores both copies); every other sample
    // gets its own rows and copy files with the same pictures (issuing reads only the display copies
    // of photos whose copies are ready, never the originals).
    const t0 = performance.now();
    const originals = await Promise.all(
      Array.from({ length: PHOTOS }, (_, i) => phoneLikeJpeg({ orientation: i % 2 ? 1 : 6 })),
    );
    const photoRows = (sampleId: number, n: number, state: 'pending' | 'ready') =>
      originals.map((o, i) => ({
        sampleId,
        fileName: `bench-${n}-${i + 1}.jpg`,
        originalName: `view-${i + 1}.jpg`,
        fileType: 'image/jpeg',
        fileSize: o.length,
        fileCategory: 'photo',
        copiesState: state,
      }));
    const [first, ...rest] = rows;
    if (!first) throw new Error('no samples');
    const firstFiles = await db
      .insert(sampleFiles)
      .values(photoRows(first.id, 0, 'pending'))
      .returning();
    const copies: { thumbnail: Buffer; display: Buffer }[] = [];
    for (const [i, f] of firstFiles.entries()) {
      await storage.put(`uploads/${f.fileName}`, originals[i] ?? Buffer.alloc(0));
      if ((await makeCopiesOfPhoto({ db, storage }, f.id)) !== 'made') throw new Error('copies not made');
      copies.push({
        thumbnail: await storage.read(photoCopyKey(f.fileName, 'thumbnail')),
        display: await storage.read(photoCopyKey(f.fileName, 'display')),
      });
    }
    const photoIds = new Map<number, number[]>([[first.id, firstFiles.map((f) => f.id)]]);
    for (const [n, row] of rest.entries()) {
      const files = await db
        .insert(sampleFiles)
        .values(photoRows(row.id, n + 1, 'ready'))
        .returning();
      for (const [i, f] of files.entries()) {
        const c = copies[i];
        if (!c) throw new Error('no copies');
        await storage.put(photoCopyKey(f.fileName, 'thumbnail'), c.thumbnail);
        await storage.put(photoCopyKey(f.fileName, 'display'), c.display);
      }
      photoIds.set(
        row.id,
        files.map((f) => f.id),
      );
    }
    const displayKb = copies.map((c) => Math.round(c.display.length / 1024));
    console.log(
      `photos: ${PHOTOS} × 12 MP JPEG (${originals.map((o) => Math.round(o.length / 1024)).join(', ')} KB), display copies ${displayKb.join(', ')} KB; set up in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

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

    // BENCH_CPU_PROFILE=out.cpuprofile: a CPU profile of the timed issues only.
    const profile = await startProfile(process.env.BENCH_CPU_PROFILE);
    const issueMs: number[] = [];
    let bytes = 0;
    let pages = 0;
    for (const [i, row] of rows.entries()) {
      const body = bodyFor(photoIds.get(row.id) ?? []);
      const t1 = performance.now();
      const issued = await issueReport(deps, issuer, row.id, body);
      const ms = performance.now() - t1;
      if (i >= WARMUP) issueMs.push(ms);
      if (i === WARMUP) {
        const pdf = await storage.read(`reports/${issued.reportCode}-r1.pdf`);
        bytes = pdf.length;
        pages = (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
      }
    }

    await profile.stop();

    // The render alone, with the same content and photos, and the signature alone.
    const content = reportContentOf(bodyFor(photoIds.get(first.id) ?? []));
    const renderMs: number[] = [];
    const signMs: number[] = [];
    for (let i = 0; i < ISSUES; i++) {
      const t1 = performance.now();
      const unsigned = await renderReportPdf({
        lab: {
          name: 'Heritage Valuation Laboratory',
          address: '125 Antiquarian Row, Suite 400, Boston, MA 02108',
          phone: '+1 (617) 555-0142',
          email: null,
          certificationNumber: 'ISO/IEC 17025 No. 4411',
          logo: LOGO,
        },
        sample: {
          displayId: 'VAL-0001',
          itemName: 'River Landscape with Mill',
          category: 'Artwork & Paintings',
          description: 'Oil on canvas, signed lower left, in a gilt frame.',
          submissionDate: new Date(),
          services: 'Expert Valuation, Authenticity Check',
          ownerName: 'Olivia Bennett',
        },
        elements: ELEMENTS.map((e) => ({
          ...e,
          purity: e.purity ?? null,
          quality: e.quality ?? null,
          notes: e.notes ?? null,
        })),
        content,
        photos: copies.map((c, n) => ({ image: c.display, caption: `Photo ${n + 1}: view-${n + 1}.jpg` })),
        analyst: { name: 'Eleanor Whitfield', signature: SIGNATURE },
        reportCode: 'ABCD2345',
        revision: 1,
        issuedAt: new Date(),
        verifyUrl: 'https://lab.example/verify-report?code=ABCD2345',
        signing: { signerName: keys.pdf.signerName, location: 'Boston', contactInfo: 'https://lab.example' },
      });
      const t2 = performance.now();
      renderMs.push(t2 - t1);
      await keys.pdf.sign(unsigned, new Date());
      signMs.push(performance.now() - t2);
    }
    await database.close();

    const loadAtEnd = load();
    const median = pct(issueMs, 50);
    const met = median < TARGET_MEDIAN_MS;
    const f = (x: number) => `${x.toFixed(1)} ms`;
    console.log(
      `report issuing, ${ISSUES} issues of a valuation report with ${PHOTOS} photos, 10 elements, logo and signature (signed PDF ${Math.round(bytes / 1024)} KB, ${pages} pages):`,
    );
    console.log(
      `  issue (render + sign + store + transaction): median ${f(median)}, p99 ${f(pct(issueMs, 99))}`,
    );
    console.log(
      `  render alone:                                 median ${f(pct(renderMs, 50))}, p99 ${f(pct(renderMs, 99))}`,
    );
    console.log(
      `  sign alone:                                   median ${f(pct(signMs, 50))}, p99 ${f(pct(signMs, 99))}`,
    );
    console.log(`  load average (1 / 5 / 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end`);
    console.log(`  target: issue median under ${TARGET_MEDIAN_MS} ms: ${met ? 'met' : 'NOT met'}`);
    console.log('\nRow for docs/benchmarks.md ("Report issuing"):');
    console.log(
      `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${loadAtStart} → ${loadAtEnd} | ${Math.round(bytes / 1024)} KB, ${pages} p. | **${f(median)}** | ${f(pct(issueMs, 99))} | ${f(pct(renderMs, 50))} | ${f(pct(signMs, 50))} | ${met ? 'met' : 'NOT met'} |`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
