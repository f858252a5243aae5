// `npm run bench -- audit`: what writing the audit event adds to a status change (target: under 2 ms
// at the median, docs/product/audit-trail.md). On PostgreSQL (a throwaway cluster) and on PGlite, the
// status change's own transaction (lock the sample, update it, write its history row) runs with and
// without its audit event, alternately, so both see the same machine load; the audit call alone is
// timed inside the second. The load average is printed with the figures: the machine may be shared.
// Results go to the "Audit trail" section of docs/benchmarks.md.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { recordAudit } from '../server/audit/audit';
import { type Database, openPglite, openPostgres } from '../server/db/client';
import { samples, users } from '../server/db/schema';
import { setSampleStatus } from '../server/modules/sample-status/sample-status.queries';
import { findSampleForUpdate } from '../server/modules/workflow/workflow.queries';
import { startPostgresCluster } from '../tests/support/postgres';

const RUNS = Number(process.env.BENCH_RUNS ?? 400);
const WARMUP = 50;
const STATUSES = ['in-progress', 'analysis', 'review'] as const;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))] ?? Number.NaN;
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

async function measure(kind: string, database: Database) {
  const { db } = database;
  const [staff] = await db
    .insert(users)
    .values({ email: `bench-${Date.now()}@lab.test`, passwordHash: 'x', role: 'staff' })
    .returning();
  if (!staff) throw new Error('no user');
  const [sample] = await db
    .insert(samples)
    .values({
      userId: staff.id,
      submitterName: 'Bench',
      submitterEmail: staff.email,
      itemName: 'Clock',
      category: 'clocks-watches',
      description: 'x',
      assignedStaffId: staff.id,
    })
    .returning();
  if (!sample) throw new Error('no sample');
  const actor = { id: staff.id, email: staff.email };

  let i = 0;
  /** One status change in its transaction; with `audit`, its event too. Answers [total, audit alone]. */
  async function change(audit: boolean): Promise<[number, number]> {
    const status = STATUSES[i++ % STATUSES.length] as string;
    let auditMs = 0;
    const start = performance.now();
    await db.transaction(async (tx) => {
      const row = await findSampleForUpdate(tx, sample!.id);
      if (!row) throw new Error('sample vanished');
      await setSampleStatus(tx, { sampleId: row.id, status, comment: null, updatedBy: staff!.id });
      if (audit) {
        const a = performance.now();
        await recordAudit(tx, {
          actor,
          ip: '203.0.113.9',
          action: 'sample.status_changed',
          subject: { type: 'sample', id: row.id },
          before: { status: row.status },
          after: { status, comment: null },
        });
        auditMs = performance.now() - a;
      }
    });
    return [performance.now() - start, auditMs];
  }

  for (let w = 0; w < WARMUP; w++) {
    await change(false);
    await change(true);
  }
  const without: number[] = [];
  const withAudit: number[] = [];
  const auditAlone: number[] = [];
  const before = load();
  for (let r = 0; r < RUNS; r++) {
    without.push((await change(false))[0]);
    const [total, alone] = await change(true);
    withAudit.push(total);
    auditAlone.push(alone);
  }
  const added = median(withAudit) - median(without);
  console.log(`${kind}: ${RUNS} status changes each way; load average ${before} → ${load()}`);
  console.log(`  without the audit event: median ${ms(median(without))}, p95 ${ms(p95(without))}`);
  console.log(`  with the audit event:    median ${ms(median(withAudit))}, p95 ${ms(p95(withAudit))}`);
  console.log(`  recordAudit alone:       median ${ms(median(auditAlone))}, p95 ${ms(p95(auditAlone))}`);
  console.log(`  added at the median: ${ms(added)} (target < 2 ms: ${added < 2 ? 'met' : 'NOT met'})`);
}

const cluster = await startPostgresCluster();
try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database bench_audit');
  await admin.end();
  const postgres = await openPostgres(cluster.urlFor('bench_audit'), { max: 4 });
  try {
    await measure('PostgreSQL', postgres);
  } finally {
    await postgres.close();
  }
} finally {
  cluster.stop();
}
const pglite = await openPglite(undefined);
try {
  await measure('PGlite', pglite);
} finally {
  await pglite.close();
}
