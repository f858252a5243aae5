import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import type { RowBatches } from '../db/batches';

export type CsvColumn<T> = {
  header: string;
  value: (row: T) => string | number | boolean | null;
  /**
   * The text is written as it is, never given the apostrophe below: machine-made text that a reader
   * parses (JSON), which the apostrophe would break and which no spreadsheet runs as a formula.
   */
  verbatim?: true;
};

/**
 * A spreadsheet opens a cell that starts with = + - @ (or a tab or carriage return) as a formula:
 * such text is written with a leading apostrophe, as OWASP advises for CSV exports (a `verbatim`
 * column's text excepted).
 */
export function csvCell(value: string | number | boolean | null, verbatim = false): string {
  if (value === null) return '';
  const text = String(value);
  return !verbatim && typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180 quoting by csv-stringify, each record ended by a line feed (the last one too). */
const CSV_OPTIONS = { eof: true } as const;

/** Rows turned into CSV together: few enough that they are garbage before V8 next scavenges. */
const ROWS_PER_STRINGIFY = 64;
/** Text pushed to the stream as soon as it reaches this size, in the middle of a batch too. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The CSV of `batches` as a byte stream that reads one batch per read the consumer asks for.
 *
 * - Each row is turned into its cells as it arrives from the database, and every few dozen rows
 *   into CSV text by csv-stringify; the text is pushed every 64 KB. So neither a row nor its cells
 *   outlive a handful of others, and V8 never promotes them to the old generation, where a whole
 *   batch kept until its CSV was written piled up as garbage between full collections
 *   (docs/benchmarks.md, "The export in constant memory").
 * - A batch is read when Node asks for data (`read()`), and the next one only if it asked again
 *   meanwhile: once the consumer stops taking chunks, the pushed text stays above the stream's
 *   high-water mark, Node stops asking and the reading stops after the batch under way. A client
 *   that stops reading stops the reading of rows; the server then holds at most about a batch's
 *   text here and what the response buffers.
 * - Destroyed early (the client went away), it ends the batches: no further statement is sent.
 */
export function csvStream<T>(columns: readonly CsvColumn<T>[], batches: RowBatches<T>): Readable {
  let header: string | null = stringify([columns.map((c) => c.header)], CSV_OPTIONS);
  let busy = false;
  let wanted = false;
  const cellsOf = (row: T) => columns.map((c) => csvCell(c.value(row), c.verbatim));
  const stream = new Readable({
    highWaterMark: 16 * 1024,
    read() {
      wanted = true;
      if (!busy) readBatch();
    },
    destroy(err, callback) {
      batches.return();
      callback(err);
    },
  });
  const readBatch = (): void => {
    busy = true;
    wanted = false;
    let text = header ?? '';
    header = null;
    let pending: ReturnType<typeof cellsOf>[] = [];
    const flush = (all: boolean) => {
      if (pending.length && (all || pending.length >= ROWS_PER_STRINGIFY)) {
        text += stringify(pending, CSV_OPTIONS);
        pending = [];
      }
      if (text && (all || text.length >= CHUNK_CHARS)) {
        if (!stream.destroyed) stream.push(text, 'utf8');
        text = '';
      }
    };
    batches
      .next((row) => {
        pending.push(cellsOf(row));
        flush(false);
      })
      .then(
        (more) => {
          if (stream.destroyed) return;
          flush(true);
          busy = false;
          if (!more) stream.push(null);
          // Node asked for more while the batch was read (the consumer took what was pushed).
          else if (wanted) readBatch();
        },
        (err: unknown) => {
          busy = false;
          stream.destroy(err instanceof Error ? err : new Error(String(err)));
        },
      );
  };
  return stream;
}

/**
 * Streams rows as CSV while they are read (`csvStream`): memory stays constant whatever the
 * number of rows, and a slow client holds the reading back. Binary answers bypass the JSON response
 * schemas, which only describe the error bodies.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  fileName: string,
  columns: readonly CsvColumn<T>[],
  batches: RowBatches<T>,
) {
  return reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
    })
    .send(csvStream(columns, batches) as unknown as { message: string });
}
