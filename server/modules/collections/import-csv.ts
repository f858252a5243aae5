import { parse } from 'csv-parse/sync';
import {
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  IMPORT_PHOTO_SEPARATOR,
  type ImportProblem,
  type ImportRow,
  MAX_IMPORT_ROWS,
} from '../../../common/contracts/collections';
import {
  SAMPLE_SUBMISSION_MESSAGES,
  type SampleSubmission,
  sampleSubmissionFields,
} from '../../../common/contracts/samples';
import { MAX_SAMPLE_PHOTOS } from '../../../common/domain/uploads';
import { AppError, fieldErrors } from '../../plugins/errors';

// Reading an import's CSV (docs/product/collections.md): one item per row, the submission's fields
// as columns, checked by the submission's own contract so every message is the form's; the
// `photos` column names the uploaded photos. Nothing here touches the database or storage.

/** Row numbers as a spreadsheet shows them: row 1 holds the column names, the first item is row 2. */
const FIRST_ITEM_ROW = 2;

export type ReadCsv = { columns: string[]; rows: ImportRow[] };

const problem = (row: number | null, field: string, message: string): ImportProblem => ({
  row,
  field,
  path: row === null ? field : `rows.${row}.${field}`,
  message,
});

/**
 * Parses the CSV text with csv-parse: the header names the columns (trimmed, a BOM ignored), empty
 * lines are skipped. A file that cannot be parsed (an unclosed quote, a row with more cells than
 * columns) is 400; more than MAX_IMPORT_ROWS items 413; no item at all 400.
 */
export function readImportCsv(text: string): ReadCsv {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count_less: true,
      // One more than allowed tells "too many" from "exactly the limit" without reading the rest.
      to: MAX_IMPORT_ROWS + 2,
    }) as string[][];
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^Invalid Record Length: /, '') : 'unknown';
    throw new AppError(400, IMPORT_MESSAGES.unreadable(reason.slice(0, 200)));
  }
  const [header, ...data] = records;
  if (!header || data.length === 0) throw new AppError(400, IMPORT_MESSAGES.noRows);
  if (data.length > MAX_IMPORT_ROWS) throw new AppError(413, IMPORT_MESSAGES.tooManyRows);
  const columns = header.map((c) => c.trim());
  const rows = data.map((cells, i): ImportRow => {
    const fields: Record<string, string> = {};
    columns.forEach((column, j) => {
      if (column && column !== 'photos') fields[column] = cells[j] ?? '';
    });
    const photoCell = cells[columns.indexOf('photos')] ?? '';
    const photos = columns.includes('photos')
      ? photoCell
          .split(IMPORT_PHOTO_SEPARATOR)
          .map((p) => p.trim())
          .filter(Boolean)
      : [];
    return { row: i + FIRST_ITEM_ROW, fields, photos };
  });
  return { columns, rows };
}

export type CheckedImport = {
  problems: ImportProblem[];
  /** Each row's submission as its contract stored it (only when there are no problems). */
  valid: { row: ImportRow; submission: SampleSubmission }[];
};

/**
 * Every problem of every row, in row order: unknown columns (row 1), then per row the submission
 * contract's messages by field, at least one photo, photos not uploaded or named twice; finally the
 * uploaded photos no row names. `uploaded` are the names of the photos that came with the CSV.
 */
export function checkImport(csv: ReadCsv, uploaded: readonly string[]): CheckedImport {
  const problems: ImportProblem[] = [];
  const known = new Set(IMPORT_COLUMNS);
  for (const column of csv.columns)
    if (column && !known.has(column))
      problems.push(problem(1, column, IMPORT_MESSAGES.unknownColumn(column)));
  if (!csv.columns.includes('itemName')) problems.push(problem(1, 'itemName', IMPORT_MESSAGES.noItemColumn));

  const available = new Set(uploaded);
  const namedBy = new Map<string, number>();
  const valid: CheckedImport['valid'] = [];
  for (const row of csv.rows) {
    const rowProblems: ImportProblem[] = [];
    const known = Object.fromEntries(Object.entries(row.fields).filter(([k]) => IMPORT_COLUMNS.includes(k)));
    const parsed = sampleSubmissionFields.safeParse(known);
    if (!parsed.success)
      for (const e of fieldErrors(parsed.error.issues)) rowProblems.push(problem(row.row, e.path, e.message));
    if (row.photos.length === 0)
      rowProblems.unshift(problem(row.row, 'photos', SAMPLE_SUBMISSION_MESSAGES.photoRequired));
    if (row.photos.length > MAX_SAMPLE_PHOTOS)
      rowProblems.push(problem(row.row, 'photos', IMPORT_MESSAGES.tooManyRowPhotos));
    for (const name of row.photos) {
      const earlier = namedBy.get(name);
      if (!available.has(name))
        rowProblems.push(problem(row.row, 'photos', IMPORT_MESSAGES.photoMissing(name)));
      else if (earlier !== undefined)
        rowProblems.push(problem(row.row, 'photos', IMPORT_MESSAGES.photoTwice(name, earlier)));
      else namedBy.set(name, row.row);
    }
    problems.push(...rowProblems);
    if (parsed.success && rowProblems.length === 0) valid.push({ row, submission: parsed.data });
  }
  for (const name of available)
    if (!namedBy.has(name)) problems.push(problem(null, 'photos', IMPORT_MESSAGES.photoNotNamed(name)));
  return { problems, valid: problems.length ? [] : valid };
}
