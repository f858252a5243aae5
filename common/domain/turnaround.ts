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

/** The calendar day `count` business days after the start instant's day. */
export function addBusinessDays(start: Date, count: number): string {
  const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  let left = count;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return utcDay(day);
}

export type TurnaroundInput = {
  submissionDate: Date;
  urgencyLevel: string | null;
  /** When the sample's quote was accepted; null when none was. */
  quoteAcceptedAt: Date | null;
  status: string;
};

export type Turnaround = { expectedCompletionDate: string; overdue: boolean };

/** The expected date, and whether it has passed while the sample is not completed. */
export function turnaroundOf(sample: TurnaroundInput, now: Date = new Date()): Turnaround {
  const expected = addBusinessDays(
    sample.quoteAcceptedAt ?? sample.submissionDate,
    businessDaysFor(sample.urgencyLevel),
  );
  return {
    expectedCompletionDate: expected,
    overdue: sample.status !== 'completed' && utcDay(now) > expected,
  };
}

/** A calendar day "YYYY-MM-DD" as the product writes it in documents: 'November 16, 2026'. */
export function longDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime())
    ? day
    : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
