import { REPORT_CODE_ALPHABET } from '../../../common/domain/reports';

// How a search box's text is read (docs/decisions/0025-search.md). Pure: the SQL is built from
// this in sample-search.queries.ts.

/** Words shorter than this are not searched alone: a trigram index cannot find them. */
export const MIN_WORD_LENGTH = 3;
/** At most this many words of a search are used. */
export const MAX_WORDS = 8;

export type ParsedSearch = {
  /** The sample id the text names: `VAL-0042`, `val 42`, `0042` or `42`. */
  id: number | null;
  /** The report code the text is, upper-cased (codes are 8 characters of the report alphabet). */
  code: string | null;
  /** Words matched anywhere in the folded search text, as LIKE patterns (`%word%`, wildcards escaped). */
  patterns: string[];
  /** The text is one whole e-mail address, lower-cased: it may be matched exactly (see sample-search.queries.ts). */
  email: string | null;
};

const ID_PATTERN = /^(?:val[-\s]?)?0*(\d{1,10})$/i;
/** A bare number this long (leading zeros count: "0000042" is a padded id) is read as an id only. */
export const ID_ONLY_DIGITS = 7;
const CODE_CHARS = new Set(REPORT_CODE_ALPHABET);
/** One token shaped like a whole address: something, an @, a domain with a dot. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** LIKE's own wildcards in a word are matched literally. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function parseSearch(text: string): ParsedSearch {
  const trimmed = text.trim();
  const idMatch = ID_PATTERN.exec(trimmed);
  const idValue = idMatch ? Number(idMatch[1]) : NaN;
  const id = Number.isInteger(idValue) && idValue >= 1 && idValue <= 2_147_483_647 ? idValue : null;
  const upper = trimmed.toUpperCase();
  const code = upper.length === 8 && [...upper].every((c) => CODE_CHARS.has(c)) ? upper : null;
  const words = [...new Set(trimmed.toLowerCase().split(/\s+/).filter(Boolean))];
  // Short words narrow a search that has a longer one; alone they would read the whole table.
  // A VAL id written as one ("VAL-0042") names the sample alone: no text can contain it. So does a
  // bare number of ID_ONLY_DIGITS or more: item names carry years and lot numbers, not such numbers,
  // and matching them as text would read a trigram index's worth of rows for one sample.
  const namesId = id !== null && (/^val/i.test(trimmed) || trimmed.length >= ID_ONLY_DIGITS);
  const usable = !namesId && words.some((w) => w.length >= MIN_WORD_LENGTH) ? words : [];
  const email = EMAIL_PATTERN.test(trimmed) ? trimmed.toLowerCase() : null;
  return { id, code, patterns: usable.slice(0, MAX_WORDS).map(likePattern), email };
}
