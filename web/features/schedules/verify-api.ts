import type { ScheduleVerification } from '../../../common/contracts/schedules';
import { scheduleKeys } from './keys';

// The public schedule verification's call (docs/product/schedules.md). A plain fetch without a
// token: the page is public, and it loads nothing of the signed-in app's request helpers.

/** A verification that did not answer 200: its status (404: no such schedule) and message. */
export class VerifyScheduleError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const scheduleVerificationQuery = (code: string) => ({
  queryKey: scheduleKeys.verify(code),
  queryFn: async () => {
    const res = await fetch(`/api/schedules/verify/${encodeURIComponent(code)}`);
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (!res.ok)
      throw new VerifyScheduleError(res.status, body?.message ?? 'The schedule could not be verified.');
    return body as ScheduleVerification;
  },
  retry: false,
});
