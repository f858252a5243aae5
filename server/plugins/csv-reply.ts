import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';

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

/**
 * The CSV of `batches` as a byte stream that reads one batch per read the consumer asks for.
 *
 * - Each batch becomes one chunk at once: its rows are turned into text by csv-stringify as soon as
 *   they arrive and are garbage before anything waits on the network, so no row object outlives
 *   its batch's turn of the event loop (V8 never promotes it) and the text waits as a Buffer.
 * - The next batch is read only when the consumer has taken the previous one: a chunk is larger than
 *   the stream's high-water mark, so after each push Node calls `read()` again only once the
 *   response (and so the socket) has drained. A client that stops reading stops the reading of
 *   batches; the server then holds at most one chunk here and one in the response.
 * - Destroyed early (the client went away), it ends the batches' generator, which stops its queries.
 */
export function csvStream<T>(
  columns: readonly CsvColumn<T>[],
  batches: AsyncIterable<readonly T[]>,
): Readable {
  const iterator = batches[Symbol.asyncIterator]();
  let header: string | null = stringify([columns.map((c) => c.header)], CSV_OPTIONS);
  const render = (batch: readonly T[]) =>
    stringify(
      batch.map((row) => columns.map((c) => csvCell(c.value(row), c.verbatim))),
      CSV_OPTIONS,
    );
  return new Readable({
    highWaterMark: 16 * 1024,
    read() {
      const pull = (): void => {
        iterator.next().then(
          (step) => {
            if (this.destroyed) return;
            let text = header ?? '';
            header = null;
            if (!step.done) text += render(step.value);
            if (text) this.push(text, 'utf8');
            if (step.done) this.push(null);
            // An empty batch pushed nothing, so Node would not ask again: read on.
            else if (!text) pull();
          },
          (err: unknown) => this.destroy(err instanceof Error ? err : new Error(String(err))),
        );
      };
      pull();
    },
    destroy(err, callback) {
      // Ends the generator (its `finally` blocks run); a read still under way settles first.
      void iterator.return?.(undefined).catch(() => {});
      callback(err);
    },
  });
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
  batches: AsyncIterable<readonly T[]>,
) {
  return reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
    })
    .send(csvStream(columns, batches) as unknown as { message: string });
}
