import { describe, expect, it } from 'vitest';
import { navItems } from './NavBar';

const labels = (user: { role: string } | null) => navItems(user).map((i) => `${i.label} ${i.to}`);

describe('navigation items by role (docs/product/screens.md)', () => {
  it('logged out: Home, About, Services, Verify Report, Contact', () => {
    expect(labels(null)).toEqual([
      'Home /',
      'About /about',
      'Services /services',
      'Verify Report /verify-report',
      'Contact /contact',
    ]);
  });
  it.each(['user', 'customer', 'anything-else'])(
    'a customer (role %s) also gets Submit Sample, Profile, Dashboard',
    (role) => {
      expect(labels({ role })).toEqual([
        'Home /',
        'About /about',
        'Services /services',
        'Verify Report /verify-report',
        'Contact /contact',
        'Submit Sample /submit-sample',
        'Profile /profile',
        'Dashboard /dashboard',
      ]);
    },
  );
  it('staff: Profile, Dashboard to /staff, Verify Report', () => {
    expect(labels({ role: 'staff' })).toEqual([
      'Profile /profile',
      'Dashboard /staff',
      'Verify Report /verify-report',
    ]);
  });
  it('admin: Profile, Dashboard to /admin, Verify Report', () => {
    expect(labels({ role: 'admin' })).toEqual([
      'Profile /profile',
      'Dashboard /admin',
      'Verify Report /verify-report',
    ]);
  });
});
