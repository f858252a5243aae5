import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RowBatches } from '../db/batches';
import { type CsvColumn, csvStream } from './csv-reply';

// csvStream on batches whose rows arrive one at a time, as the database sends them
// (Database.eachTextRow): the CSV leaves in chunks while a batch is still arriving, and nothing of a
// batch is collected first (docs/benchmarks.md, "The export in constant memory").

type Row = { id: number; note: string };
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Note', value: (r) => r.note },
];

/** `batches` batches of `size` rows, each row handed over after a turn of the event loop. */
function slowBatches(batches: number, size: number, note: string) {
  const log: string[] = [];
  let served = 0;
  let stopped = false;
  const source: RowBatches<Row> = {
    async next(onRow) {
      if (stopped || served === batches) return false;
      const b = served++;
      log.push(`batch ${b} start`);
      for (let i = 0; i < size; i++) {
        await new Promise((r) => setImmediate(r));
        onRow({ id: b * size + i, note });
      }
      log.push(`batch ${b} end`);
      return true;
    },
    return() {
      stopped = true;
    },
  };
  return { source, log };
}

function collect(log: string[]) {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      log.push(`chunk ${chunk.length}`);
      callback();
    },
  });
  return { sink, chunks };
}

describe('csvStream', () => {
  it('sends a batch in chunks while its rows are still arriving, and every row in order', async () => {
    // 2 batches of 300 rows of ~2 KB: each batch is about 600 KB of CSV, written 64 rows (128 KB)
    // at a time.
    const { source, log } = slowBatches(2, 300, 'n'.repeat(2000));
    const { sink, chunks } = collect(log);
    csvStream(COLUMNS, source).pipe(sink);
    await finished(sink);
    const firstEnd = log.indexOf('batch 0 end');
    const chunksBefore = log.slice(0, firstEnd).filter((l) => l.startsWith('chunk')).length;
    expect(chunksBefore).toBeGreaterThanOrEqual(4);
    const rows = parse(Buffer.concat(chunks).toString('utf8'), { columns: true }) as { ID: string }[];
    expect(rows.map((r) => Number(r.ID))).toEqual(Array.from({ length: 600 }, (_, i) => i));
  });

  it('writes the header alone for no rows, and fails the stream with the error a batch rejects with', async () => {
    const empty: RowBatches<Row> = { next: async () => false, return() {} };
    const { sink, chunks } = collect([]);
    csvStream(COLUMNS, empty).pipe(sink);
    await finished(sink);
    expect(Buffer.concat(chunks).toString('utf8')).toBe('ID,Note\n');

    const failing: RowBatches<Row> = {
      next: async (onRow) => {
        onRow({ id: 1, note: 'x' });
        throw new Error('statement failed');
      },
      return() {},
    };
    const stream = csvStream(COLUMNS, failing);
    stream.resume();
    await expect(finished(stream)).rejects.toThrow('statement failed');
  });

  it('stops reading batches once destroyed (the client went away)', async () => {
    const { source, log } = slowBatches(50, 10, 'x');
    const stream = csvStream(COLUMNS, source);
    stream.once('data', () => stream.destroy());
    await new Promise((r) => stream.on('close', r));
    await new Promise((r) => setTimeout(r, 50));
    expect(log.filter((l) => l.endsWith('start')).length).toBeLessThanOrEqual(2);
  });
});
