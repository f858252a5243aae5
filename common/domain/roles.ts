export const ROLES = ['user', 'staff', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { user: 'User', staff: 'Staff', admin: 'Admin' };

/** Staff and admin run the lab; every other role is a customer (docs/product/roles-and-access.md). */
export function isLabRole(role: string | null | undefined): role is 'staff' | 'admin' {
  return role === 'staff' || role === 'admin';
}

/** Where a user lands after login (docs/product/roles-and-access.md). */
export function homePathForRole(role: string | null | undefined): string {
  if (role === 'admin') return '/admin';
  if (role === 'staff') return '/staff';
  return '/';
}

/** Each role's own dashboard: the lab's screens for staff and admins, 'My Dashboard' for customers. */
export function dashboardPathForRole(role: string | null | undefined): string {
  if (role === 'admin') return '/admin';
  if (role === 'staff') return '/staff';
  return '/dashboard';
}
