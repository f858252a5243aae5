import { fillPlaceholders, is, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Database } from './client';
import { utcTextAsIso } from '../time';

/** A row as PostgreSQL sends it in the text format: each column's text, or null. */
export type TextRow = (string | null)[];

/** What this query uses of node-postgres's connection: the calls its own `Query` makes. */
type Wire = {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { name: string; text: string; types: number[] }): void;
  bind(config: { statement: string; values: (string | null)[] }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
  sendCopyFail(message: string): void;
};

/**
 * A named prepared statement run through node-postgres's "submittable" interface (the one pg-cursor
 * uses), answering its rows as text. It sends Bind, Execute and Sync only: no Describe, so no row
 * description comes back to be turned into parsers, and no column is parsed by the driver. The caller
 * knows its columns and decodes them itself (`decodeTimestamp` and JSON.parse below).
 *
 * Why: for the hottest public call, pg's generic path (copying the query config, building a parser
 * and an empty row object from each row description, parsing every timestamp into a Date that is
 * formatted straight back) cost more server time than the rest of the app's own work
 * (docs/benchmarks.md, "Report verification"). Everything else goes through drizzle.
 *
 * With the name '' it is PostgreSQL's unnamed statement, parsed on every run (the exports' statements,
 * whose text changes with their filters). With `onRow` each row is handed over as it arrives and none
 * is kept (`Database.eachTextRow`); the callback then answers an empty list.
 */
export class TextRowsQuery {
  /** Set by the client (pg-pool passes its callback); called once, with the rows or the error. */
  callback: ((err: Error | null, rows?: TextRow[]) => void) | undefined = undefined;
  private readonly rows: TextRow[] = [];

  /** The first error `onRow` threw: no row is handed over after it, and the query answers it. */
  private failure: Error | null = null;

  constructor(
    readonly name: string,
    readonly text: string,
    private readonly values: (string | null)[],
    private readonly onRow?: (row: TextRow) => void,
  ) {}

  submit(connection: Wire): Error | null {
    const known = this.name
      ? (connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name])
      : undefined;
    if (known !== undefined && known !== this.text)
      return new Error(
        `Prepared statements must be unique - '${this.name}' was used for a different statement`,
      );
    connection.stream.cork?.();
    try {
      if (known === undefined) {
        connection.parse({ name: this.name, text: this.text, types: [] });
        // As pg's Query does: the client moves it to parsedStatements on ParseComplete, or drops it
        // on an error, so a failed statement is parsed again next time.
        if (this.name) connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ statement: this.name, values: this.values });
      connection.execute({ portal: '', rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleDataRow(msg: { fields: TextRow }): void {
    if (!this.onRow) {
      this.rows.push(msg.fields);
      return;
    }
    if (this.failure) return;
    // Thrown here, an error would be thrown inside the driver's message handling.
    try {
      this.onRow(msg.fields);
    } catch (err) {
      this.failure = err instanceof Error ? err : new Error(String(err));
    }
  }

  handleReadyForQuery(): void {
    if (this.failure) this.callback?.(this.failure);
    else this.callback?.(null, this.rows);
  }

  /** The client calls this at most once, and then no handleReadyForQuery follows for this query. */
  handleError(err: Error): void {
    this.callback?.(err);
  }

  handleCopyInResponse(connection: Wire): void {
    connection.sendCopyFail('No source stream defined');
  }

  // The messages a plain select never causes, or whose content this query does not need.
  handleRowDescription(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** A parameter as the text format sends it. */
export const textParam = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

const parseTimestamptz = pg.types.getTypeParser(1184, 'text') as (text: string) => Date;

/**
 * A timestamptz column's text as every answer carries a time: ISO 8601 in UTC with milliseconds.
 * Text in UTC under the default DateStyle (the usual case) is rewritten without a Date
 * (`utcTextAsIso`); another session time zone or form falls back to the driver's own parser.
 */
export function decodeTimestamp(text: string): string {
  return utcTextAsIso(text) ?? parseTimestamptz(text).toISOString();
}

export const decodeTimestampOrNull = (text: string | null): string | null =>
  text === null ? null : decodeTimestamp(text);

/**
 * A json or jsonb column's text as the app writes JSON (JSON.stringify: no white space, the keys in
 * the stored order): PostgreSQL's jsonb text puts a space after each colon and comma. Null for SQL
 * null and for JSON null.
 */
export function compactJson(text: string | null): string | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return value === null ? null : JSON.stringify(value);
}

/**
 * Where each field of a flat select (`db.select(fields)`) sits in its text rows: drizzle selects the
 * fields in the object's order. Read as `row[at.itemName]`.
 */
export function columnIndexes<K extends string>(fields: Record<K, unknown>): { readonly [P in K]: number } {
  return Object.fromEntries(Object.keys(fields).map((key, i) => [key, i])) as { [P in K]: number };
}

/**
 * A statement built once by drizzle, to be run by name through `Database.queryTextRows`: its text and
 * its parameters, some filled per call (drizzle's `sql.placeholder(name)`, also as an inserted value).
 */
export type TextStatement = { name: string; text: string; params: unknown[] };

const dialect = new PgDialect();

/** Builds `query` (a drizzle query or an `sql` fragment) once, as the named statement `name`. */
export function textStatement(
  name: string,
  query: SQL | { toSQL(): { sql: string; params: unknown[] } },
): TextStatement {
  const { sql: text, params } = is(query, SQL) ? dialect.sqlToQuery(query) : query.toSQL();
  return { name, text, params };
}

/** A value as the text protocol sends it: dates as ISO 8601, objects as JSON, the rest as text. */
export function encodeParam(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Runs a built statement with this call's placeholder values (a missing one throws, as drizzle's own
 * prepared statements do; an inserted value goes through its column's encoder), answering its rows as text.
 */
export function runTextStatement(
  database: Pick<Database, 'queryTextRows'>,
  statement: TextStatement,
  values: Record<string, unknown>,
): Promise<TextRow[]> {
  const filled = fillPlaceholders(statement.params, values);
  const args = new Array<string | null>(filled.length);
  for (let i = 0; i < filled.length; i++) args[i] = encodeParam(filled[i]);
  return database.queryTextRows(statement.name, statement.text, args);
}
