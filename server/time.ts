// One time format for every answer and log: ISO 8601 in UTC with milliseconds (docs/architecture.md).

// PostgreSQL's forms of a UTC timestamptz (0–6 decimals): in JSON 2026-11-23T08:13:00.123456+00:00,
// as column text 2026-11-23 08:13:00.123456+00.
const PG_UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00(?::00)?$/;

/**
 * PostgreSQL's UTC text of a timestamp as the answers carry it (`2026-11-23T08:13:00.123Z`), rewritten
 * without parsing a Date; null for any other offset or form. Milliseconds are truncated, as a Date
 * truncates them.
 */
export function utcTextAsIso(text: string): string | null {
  const m = PG_UTC_TIMESTAMP.exec(text);
  return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z` : null;
}

/**
 * A timestamp as every answer carries it: ISO 8601 in UTC with milliseconds (rows give Date, raw SQL
 * and JSON columns give text). PostgreSQL's UTC text is rewritten without parsing a Date (a Date parse
 * was the largest part of the public verification presenter), `utcTextAsIso`.
 */
export const isoDate = (d: Date | string): string => {
  if (d instanceof Date) return d.toISOString();
  // Already in the answers' form (a row read as text was decoded to it): as it is.
  if (ISO_MS_UTC.test(d)) return d;
  return utcTextAsIso(d) ?? new Date(d).toISOString();
};

/** The answers' own form: 2026-11-23T08:13:00.123Z. */
const ISO_MS_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The same for a timestamp that may be missing (not issued, not revoked). */
export const isoDateOrNull = (d: Date | string | null): string | null => (d ? isoDate(d) : null);

/** The UTC calendar day of a timestamp (YYYY-MM-DD), as messages and file names give it. */
export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);
