import type { AuthUser } from '../../plugins/auth';

// Who may do what with the lab's samples (CONTRACT §2). Reading lists is staff and admin (route
// guards); changing a sample is the admin, or the staff member it is assigned to.

export const isAdmin = (user: AuthUser) => user.role === 'admin';

/** Status changes and report issuing: admin, or the assigned staff member. */
export function canWorkOnSample(user: AuthUser, sample: { assignedStaffId: number | null }): boolean {
  if (isAdmin(user)) return true;
  return user.role === 'staff' && sample.assignedStaffId === user.id;
}

/** Only users who run the lab can be given a sample. */
export function canBeAssigned(assignee: { role: string; isActive: boolean }): boolean {
  return assignee.isActive && (assignee.role === 'staff' || assignee.role === 'admin');
}
