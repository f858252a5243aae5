import { describe, expect, it } from 'vitest';
import { addBusinessDays, businessDaysFor, turnaroundOf } from './turnaround';

const at = (iso: string) => new Date(iso);

describe('expected completion date', () => {
  it('counts ten business days from the day after the start, skipping weekends', () => {
    // Monday 2026-11-02 → two full weeks later, Monday 2026-11-16.
    expect(addBusinessDays(at('2026-11-02T09:00:00Z'), 10)).toBe('2026-11-16');
    // Friday 2026-11-06 → Friday 2026-11-20 (the start day never counts).
    expect(addBusinessDays(at('2026-11-06T17:30:00Z'), 10)).toBe('2026-11-20');
  });

  it('treats a weekend start like the Friday before it', () => {
    expect(addBusinessDays(at('2026-11-07T10:00:00Z'), 5)).toBe('2026-11-13');
    expect(addBusinessDays(at('2026-11-08T23:59:59Z'), 5)).toBe('2026-11-13');
    expect(addBusinessDays(at('2026-11-06T10:00:00Z'), 5)).toBe('2026-11-13');
  });

  it('gives urgent samples five business days and everything else ten', () => {
    expect(businessDaysFor('urgent')).toBe(5);
    expect(businessDaysFor('standard')).toBe(10);
    expect(businessDaysFor(null)).toBe(10);
    // Wednesday start: urgent ends next Wednesday.
    expect(addBusinessDays(at('2026-11-04T08:00:00Z'), 5)).toBe('2026-11-11');
  });

  it('crosses month and year ends', () => {
    // Thursday 2026-01-29 + 5 → Thursday 2026-02-05.
    expect(addBusinessDays(at('2026-01-29T12:00:00Z'), 5)).toBe('2026-02-05');
    // Wednesday 2026-12-23 + 10 → Wednesday 2027-01-06.
    expect(addBusinessDays(at('2026-12-23T12:00:00Z'), 10)).toBe('2027-01-06');
    // Leap year: Thursday 2028-02-24 + 5 → Thursday 2028-03-02 (29 February is a Tuesday).
    expect(addBusinessDays(at('2028-02-24T12:00:00Z'), 5)).toBe('2028-03-02');
  });

  it('uses the UTC calendar day of the start instant', () => {
    // 23:30 on Friday in UTC is still Friday: urgent ends the next Friday.
    expect(addBusinessDays(at('2026-11-06T23:30:00Z'), 5)).toBe('2026-11-13');
    // Sunday 22:00 in New York is Monday in UTC: urgent ends the next Monday.
    expect(addBusinessDays(at('2026-11-08T22:00:00-05:00'), 5)).toBe('2026-11-16');
  });
});

describe('turnaround of a sample', () => {
  const sample = {
    submissionDate: at('2026-11-02T09:00:00Z'),
    urgencyLevel: 'standard',
    quoteAcceptedAt: null,
    status: 'analysis',
  };

  it('starts from submission without an accepted quote, from acceptance with one', () => {
    expect(turnaroundOf(sample, at('2026-11-03T00:00:00Z')).expectedCompletionDate).toBe('2026-11-16');
    const accepted = { ...sample, quoteAcceptedAt: at('2026-11-05T10:00:00Z') };
    expect(turnaroundOf(accepted, at('2026-11-05T11:00:00Z')).expectedCompletionDate).toBe('2026-11-19');
  });

  it('is overdue only after the expected day and only while not completed', () => {
    expect(turnaroundOf(sample, at('2026-11-16T23:59:00Z')).overdue).toBe(false);
    expect(turnaroundOf(sample, at('2026-11-17T00:00:00Z')).overdue).toBe(true);
    expect(turnaroundOf({ ...sample, status: 'completed' }, at('2026-12-01T00:00:00Z')).overdue).toBe(false);
    expect(turnaroundOf({ ...sample, status: 'on-hold' }, at('2026-12-01T00:00:00Z')).overdue).toBe(true);
  });
});

describe('instants given as ISO text (the server reads list rows as text)', () => {
  it('gives the same day for the text as for the Date, asked any number of times', () => {
    const instants = [
      '2026-11-06T23:30:00.000Z',
      '2026-11-07T00:00:00.000Z',
      '2026-12-23T12:00:00.123Z',
      '2028-02-24T12:00:00.000Z',
      '2026-11-08T22:00:00-05:00',
    ];
    for (const text of instants)
      for (const count of [5, 10, 0])
        for (let i = 0; i < 3; i++)
          expect(addBusinessDays(text, count)).toBe(addBusinessDays(at(text), count));
  });

  it('turnaroundOf takes text instants, and "now" moving on changes the overdue flag', () => {
    const sample = {
      submissionDate: '2026-11-02T09:00:00.000Z',
      urgencyLevel: 'standard',
      quoteAcceptedAt: null,
      status: 'analysis',
    };
    expect(turnaroundOf(sample, at('2026-11-16T23:59:00Z'))).toEqual({
      expectedCompletionDate: '2026-11-16',
      overdue: false,
    });
    expect(turnaroundOf(sample, at('2026-11-17T00:00:00Z')).overdue).toBe(true);
    expect(turnaroundOf(sample, at('2026-11-16T23:59:00Z')).overdue).toBe(false);
  });
});
