// Turnaround (docs/product/quotes.md): the expected completion date is the start day plus 10
// business days (5 for urgent samples). The start is the day the quote was accepted, or the day of
// submission when no quote was accepted. The start day itself never counts; counting begins the
// next day and skips Saturdays and Sundays. Dates are calendar days in UTC, as "YYYY-MM-DD".

export const STANDARD_BUSINESS_DAYS = 10;
export const URGENT_BUSINESS_DAYS = 5;

export function businessDaysFor(urgencyLevel: string | null | undefined): number {
  return urgencyLevel === 'urgent' ? URGENT_BUSINESS_DAYS : STANDARD_BUSINESS_DAYS;
}

/** "YYYY-MM-DD" of an instant's UTC calendar day. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** An instant as a Date or as ISO 8601 text ("…T…Z", as the server's rows and answers carry it). */
export type Instant = Date | string;

const DAY_MS = 86_400_000;

/** The number of an instant's UTC calendar day since 1970-01-01. */
function dayNumber(at: Instant): number {
  if (typeof at === 'string') {
    // ISO text in UTC names its day in its first ten characters; any other form is parsed.
    if (at.length >= 20 && at[10] === 'T' && at.endsWith('Z'))
      return Date.UTC(Number(at.slice(0, 4)), Number(at.slice(5, 7)) - 1, Number(at.slice(8, 10))) / DAY_MS;
    return Math.floor(new Date(at).getTime() / DAY_MS);
  }
  return Math.floor(at.getTime() / DAY_MS);
}

// A list of hundreds of samples asks for the same few start days over and over: the answers are kept.
const businessDayMemo = new Map<number, string>();
const MEMO_LIMIT = 4096;

/** The calendar day `count` business days after the start instant's day. */
export function addBusinessDays(start: Instant, count: number): string {
  const first = dayNumber(start);
  const key = first * 64 + (count & 63);
  const known = count >= 0 && count < 64 ? businessDayMemo.get(key) : undefined;
  if (known !== undefined) return known;
  const day = new Date(first * DAY_MS);
  let left = count;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  const answer = utcDay(day);
  if (count >= 0 && count < 64) {
    if (businessDayMemo.size >= MEMO_LIMIT) businessDayMemo.clear();
    businessDayMemo.set(key, answer);
  }
  return answer;
}

export type TurnaroundInput = {
  submissionDate: Instant;
  urgencyLevel: string | null;
  /** When the sample's quote was accepted; null when none was. */
  quoteAcceptedAt: Instant | null;
  status: string;
};

// The day of "now", kept for the instant it was computed for (a list asks for it once per row).
let todayFor = Number.NaN;
let today = '';
function utcToday(now: Date): string {
  const ms = now.getTime();
  if (ms !== todayFor) {
    todayFor = ms;
    today = utcDay(now);
  }
  return today;
}

export type Turnaround = { expectedCompletionDate: string; overdue: boolean };

/** The expected date, and whether it has passed while the sample is not completed. */
export function turnaroundOf(sample: TurnaroundInput, now: Date = new Date()): Turnaround {
  const expected = addBusinessDays(
    sample.quoteAcceptedAt ?? sample.submissionDate,
    businessDaysFor(sample.urgencyLevel),
  );
  return {
    expectedCompletionDate: expected,
    overdue: sample.status !== 'completed' && utcToday(now) > expected,
  };
}

/** A calendar day "YYYY-MM-DD" as the product writes it in documents: 'November 16, 2026'. */
export function longDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime())
    ? day
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
