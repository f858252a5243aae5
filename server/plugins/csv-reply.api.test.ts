import { request } from 'node:http';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditRecord, auditHash } from '../audit/audit';
import { auditChainHead, auditEvents, samples } from '../db/schema';
import { AUDIT_CSV } from '../modules/audit/audit.presenter';
import { auditExportBatches } from '../modules/audit/audit.queries';
import { exportBatches } from '../modules/workflow/sample-search.queries';
import { EXPORT_AT } from '../modules/workflow/workflow.queries';
import { createUser, dbKind, startTestApp, type TestApp, type TestUser } from '../../tests/support/test-app';
import { type CsvColumn, csvStream } from './csv-reply';
import type { RowBatches } from '../db/batches';

// The CSV exports under a slow reader, on both databases (docs/benchmarks.md, "The export in
// constant memory"): the next batch is read only when the consumer has taken the previous one, so a
// client that stops reading stops the reading of rows instead of making the server hold the export.

const BATCH_ROWS = 1;
const INQUIRIES = 96;
const MESSAGE_BYTES = 256 * 1024;
const AUDIT_EVENTS = 96;

let t: TestApp;
let admin: TestUser;
let statements = 0;

beforeAll(async () => {
  t = await startTestApp({ EXPORT_BATCH_ROWS: String(BATCH_ROWS) });
  admin = await createUser(t, { role: 'admin' });
  // Every statement an export sends, counted where the app calls it (deps.database is this object).
  const each = t.database.eachTextRow.bind(t.database);
  t.database.eachTextRow = (query, onRow) => {
    statements++;
    return each(query, onRow);
  };
});
afterAll(async () => {
  await t?.close();
});

/** Batches that count how often the next one was asked for, and whether one is being read. */
function counted<T>(source: RowBatches<T>) {
  const state = { pulled: 0, reading: 0 };
  const batches: RowBatches<T> = {
    async next(onRow) {
      state.pulled++;
      state.reading++;
      try {
        return await source.next(onRow);
      } finally {
        state.reading--;
      }
    },
    return: () => source.return(),
  };
  return { batches, state };
}

/** Resolves once no batch is being read and none was asked for over a few turns of the event loop. */
async function quiet(state: { pulled: number; reading: number }) {
  for (let calm = 0; calm < 5;) {
    const before = state.pulled;
    await new Promise((resolve) => setImmediate(resolve));
    calm = state.reading === 0 && state.pulled === before ? calm + 1 : 0;
  }
}

/**
 * Starts a GET of `path` that takes the first chunk and then stops reading; `resume()` reads on and
 * `done` answers the whole body.
 */
function pausingGet(path: string, token: string) {
  const seen = { bytes: 0, atPause: 0 };
  let resume: () => void = () => {};
  const done = new Promise<string>((resolve, reject) => {
    const req = request(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      let paused = false;
      res.on('data', (chunk: Buffer) => {
        parts.push(chunk);
        seen.bytes += chunk.length;
        if (!paused) {
          paused = true;
          res.pause();
          seen.atPause = seen.bytes;
          resume = () => res.resume();
        }
      });
      res.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { seen, done, resume: () => resume() };
}

/** Resolves once `count` has not changed for half a second (the server waits on the socket). */
async function steady(count: () => number) {
  const deadline = Date.now() + 30_000;
  let last = count();
  let since = Date.now();
  while (Date.now() - since < 500) {
    if (Date.now() > deadline) throw new Error('the export never stopped reading');
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (count() !== last) {
      last = count();
      since = Date.now();
    }
  }
}

/** A consumer that takes the first chunk and then holds every write until `release()`. */
function holdingSink() {
  const chunks: Buffer[] = [];
  const held: (() => void)[] = [];
  let holding = true;
  const sink = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      if (holding) held.push(() => callback());
      else callback();
    },
  });
  const release = () => {
    holding = false;
    for (const r of held.splice(0)) r();
  };
  return { sink, chunks, release };
}

describe(`CSV exports under a slow reader (${dbKind()})`, () => {
  it('the samples export reads one batch ahead of a consumer that stops taking chunks, and all of it once it reads again', async () => {
    const owner = await createUser(t, { role: 'user' });
    const marker = `zq${Date.now().toString(36)}`;
    // 1,000 samples, 100 a batch: each batch's CSV (~25 KB) is larger than the stream's 16 KB mark.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      userId: owner.id,
      submitterName: 'Slow Reader',
      submitterEmail: owner.email,
      itemName: `${marker} ${String(i).padStart(3, '0')} ${'long item name '.repeat(15)}`,
      category: 'furniture-decorative',
      description: 'A test item.',
    }));
    const ids = (await t.db.insert(samples).values(rows).returning({ id: samples.id })).map((r) => r.id);
    const batches = counted(exportBatches(t.database, { q: marker }, { assignedTo: null }, 100));
    const columns: CsvColumn<(string | null)[]>[] = [
      { header: 'ID', value: (r) => r[EXPORT_AT.id] ?? null },
      { header: 'Item', value: (r) => r[EXPORT_AT.itemName] ?? null },
    ];
    const stream = csvStream(columns, batches.batches);

    // A consumer that takes the first chunk and then holds every write until released.
    const { sink, chunks, release } = holdingSink();
    stream.pipe(sink);
    await quiet(batches.state);
    // One batch written and waiting on the consumer, one read ahead: 2 of the 10 batches.
    expect(batches.state.pulled).toBe(2);
    expect(chunks.length).toBe(1);

    release();
    await finished(sink);
    const read = parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as { ID: string }[];
    expect(read.map((r) => Number(r.ID))).toEqual([...ids].reverse());
    expect(batches.state.pulled).toBe(11); // 10 batches and the end
  });

  it('an HTTP client that stops reading stops the inquiries export part-way; it reads on and gets every row', async () => {
    // 96 inquiries of 256 KB, one a batch: a 24 MB export, several times what the sockets buffer.
    await t.db.execute(sql`
      insert into contact_inquiries (first_name, last_name, email, subject, message, status)
      select 'Slow', 'Reader ' || g, 'slow' || g || '@example.com', 'Subject ' || g,
        repeat(chr(97 + g % 26), ${MESSAGE_BYTES}), 'new'
      from generate_series(1, ${INQUIRIES}) g`);
    statements = 0;
    const get = pausingGet('/api/admin/contact-inquiries.csv', admin.token);
    await steady(() => statements);
    const whilePaused = statements;
    // The socket buffers take a few MB; the server then waits, far from the export's end.
    expect(get.seen.bytes).toBe(get.seen.atPause);
    expect(whilePaused).toBeLessThan(INQUIRIES / 2);

    get.resume();
    const text = await get.done;
    const read = parse(text, { columns: true }) as { ID: string; Message: string }[];
    expect(read.length).toBe(INQUIRIES);
    expect(read.every((r) => r.Message.length === MESSAGE_BYTES)).toBe(true);
    const ids = read.map((r) => Number(r.ID));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(statements).toBe(INQUIRIES + 1); // one a batch, and the empty one that ends it
  });

  it('an HTTP client that stops reading stops the audit export part-way; it reads on and gets every event, chain columns and JSON included', async () => {
    // 96 events whose `after` holds 256 KB, one a batch, chained as recordAudit chains them but
    // written a few at a time (a loaded machine need not run 192 round trips).
    const subjectId = `slow-${Date.now().toString(36)}`;
    await t.db.transaction(async (tx) => {
      const [head] = await tx.select().from(auditChainHead).for('update');
      if (!head) throw new Error('no chain head');
      let prev = head.lastHash;
      const at = new Date().toISOString();
      for (let from = 0; from < AUDIT_EVENTS; from += 8) {
        const rows = Array.from({ length: 8 }, (_, j) => {
          const i = from + j;
          const record: AuditRecord = {
            id: head.seq + 1 + i,
            at,
            actorId: null,
            actorLabel: 'system',
            action: 'lab.settings_changed',
            subjectType: 'lab_settings',
            subjectId,
            before: { n: i },
            after: { n: i + 1, note: String.fromCharCode(97 + (i % 26)).repeat(MESSAGE_BYTES) },
            network: null,
          };
          const hash = auditHash(prev, record);
          const row = { ...record, at: new Date(at), prevHash: prev, hash };
          prev = hash;
          return row;
        });
        await tx.insert(auditEvents).values(rows);
      }
      await tx.update(auditChainHead).set({ seq: head.seq + AUDIT_EVENTS, lastHash: prev });
    });
    statements = 0;
    const get = pausingGet(`/api/admin/audit.csv?subjectId=${subjectId}`, admin.token);
    await steady(() => statements);
    const whilePaused = statements;
    // The socket buffers take a few MB; the server then waits, far from the export's end.
    expect(get.seen.bytes).toBe(get.seen.atPause);
    expect(whilePaused).toBeLessThan(AUDIT_EVENTS / 2);

    get.resume();
    const body = await get.done;
    const read = parse(body, { columns: true }) as Record<string, string>[];
    expect(read.length).toBe(AUDIT_EVENTS);
    const afters = read.map((r) => JSON.parse(r.after ?? '') as { n: number; note: string });
    expect(afters.map((a) => a.n)).toEqual(Array.from({ length: AUDIT_EVENTS }, (_, i) => AUDIT_EVENTS - i));
    expect(afters.every((a) => a.note.length === MESSAGE_BYTES)).toBe(true);
    // Each event names the previous one's hash: the chain as written, newest first.
    for (let i = 0; i + 1 < read.length; i++) expect(read[i]?.prevHash).toBe(read[i + 1]?.hash);
    expect(statements).toBe(AUDIT_EVENTS + 1); // one a batch, and the empty one that ends it

    // The same export, 8 events a batch, to a consumer that holds its first write: one batch written
    // and one read ahead; released, the same bytes as the download.
    const batches = counted(auditExportBatches(t.database, { subjectId }, 8));
    const { sink, chunks, release } = holdingSink();
    csvStream(AUDIT_CSV, batches.batches).pipe(sink);
    await quiet(batches.state);
    expect(batches.state.pulled).toBe(2);
    release();
    await finished(sink);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(body);
    expect(batches.state.pulled).toBe(AUDIT_EVENTS / 8 + 1);
  });
});
