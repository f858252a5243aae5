import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../common/contracts/samples';
import { dashboardCounts } from './components/CustomerDashboardPage';
import { progressSteps } from './components/SubmissionProgress';

const sample = (status: string, submissionDate: string) => ({ status, submissionDate }) as Sample;

describe('customer dashboard rules (docs/product/screens.md, statuses.md)', () => {
  it('counts in-progress as in-progress, analysis and review; this month by submission date', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    const counts = dashboardCounts(
      [
        sample('submitted', '2026-03-01T10:00:00Z'),
        sample('in-progress', '2026-03-02T10:00:00Z'),
        sample('analysis', '2026-02-20T10:00:00Z'),
        sample('review', '2025-03-20T10:00:00Z'),
        sample('completed', '2026-03-10T10:00:00Z'),
        sample('on-hold', '2026-01-10T10:00:00Z'),
        sample('weird', '2026-03-11T10:00:00Z'),
      ],
      now,
    );
    expect(counts).toEqual({ total: 7, inProgress: 3, completed: 1, thisMonth: 4 });
  });

  it('marks the four progress steps per status', () => {
    const done = (status: string) => progressSteps(status).map((s) => s.done);
    expect(progressSteps('submitted').map((s) => s.label)).toEqual([
      'Item Submitted',
      'Initial Review',
      'Expert Analysis',
      'Report Generated',
    ]);
    expect(done('submitted')).toEqual([true, false, false, false]);
    expect(done('in-progress')).toEqual([true, true, false, false]);
    expect(done('analysis')).toEqual([true, true, true, false]);
    expect(done('review')).toEqual([true, true, true, false]);
    expect(done('completed')).toEqual([true, true, true, true]);
    expect(done('on-hold')).toEqual([true, false, false, false]);
    expect(done('unknown')).toEqual([true, false, false, false]);
  });
});
