import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';

export type CsvColumn<T> = { header: string; value: (row: T) => string | number | boolean | null };

/**
 * A spreadsheet opens a cell that starts with = + - @ (or a tab or carriage return) as a formula:
 * such text is written with a leading apostrophe, as OWASP advises for CSV exports.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Streams rows as CSV (RFC 4180 quoting by csv-stringify) while they are read: batches come from
 * `batches` one at a time, and the next is read only when the client has taken the previous one
 * (stream back-pressure), so memory stays constant whatever the number of rows. Binary answers
 * bypass the JSON response schemas, which only describe the error bodies.
 */
export function sendCsv<T>(
  reply: FastifyReply,
  fileName: string,
  columns: readonly CsvColumn<T>[],
  batches: AsyncIterable<readonly T[]>,
) {
  async function* records() {
    for await (const batch of batches)
      for (const row of batch) yield columns.map((c) => csvCell(c.value(row)));
  }
  const csv = stringify({ header: true, columns: columns.map((c) => c.header), eof: true });
  const source = Readable.from(records());
  source.on('error', (err) => csv.destroy(err));
  source.pipe(csv);
  return reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'private, no-store',
    })
    .send(csv as unknown as { message: string });
}
