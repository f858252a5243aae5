import type { AuthUser } from '../../plugins/auth';

type SampleRef = { userId: number; assignedStaffId: number | null };

/** Report content is written only by an admin or the staff member the sample is assigned to (CONTRACT §2). */
export function mayIssueReport(user: AuthUser, sample: SampleRef): boolean {
  if (user.role === 'admin') return true;
  return user.role === 'staff' && sample.assignedStaffId === user.id;
}

/** The owner, any staff member or an admin may download an issued report (CONTRACT §2). */
export function mayDownloadReport(user: AuthUser, sample: SampleRef): boolean {
  return user.role === 'admin' || user.role === 'staff' || sample.userId === user.id;
}

/** Only an admin withdraws an issued report (CONTRACT §3). */
export function mayRevokeReport(user: AuthUser): boolean {
  return user.role === 'admin';
}
