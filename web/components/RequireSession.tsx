import { Alert, Container } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TWO_FACTOR_SETUP_REQUIRED } from '../../common/contracts/two-factor-messages';
import { dashboardPathForRole } from '../../common/domain/roles';
import { FROM_MAIL_PARAM, FROM_MAIL_VALUE } from '../../common/domain/samples';
import type { LoginNotice, ReturnState } from '../lib/return-to';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';
import { LoadingScreen } from './LoadingScreen';

export const LOGGED_OUT_REDIRECT_MS = 500;
export const LOGGED_OUT_MESSAGE = 'You are logged out. Redirecting to login...';
/** For someone signed in whose role may not open the page (docs/decisions/0012a-web-conventions.md). */
export const NO_ACCESS_MESSAGE =
  'Your account does not have access to this page. Taking you to your dashboard...';
/** For a signed-out reader who followed a link in one of the lab's mails: nothing is wrong, they log in. */
export const FROM_MAIL_LOGIN_MESSAGE = 'Please log in to continue';

/**
 * A route guard with the 'Unauthorized' toast: a visitor who is not logged in sees `message` and goes
 * to /login after `delayMs`; someone signed in whose role is not in `roles` is told the page is not
 * for their account and goes to their own dashboard instead (/login would only bounce them back).
 * The server enforces the same rules; this only spares a useless screen.
 */
export function RequireSession({
  children,
  roles,
  message = LOGGED_OUT_MESSAGE,
  delayMs = LOGGED_OUT_REDIRECT_MS,
}: {
  children: ReactNode;
  roles?: readonly string[];
  message?: string;
  delayMs?: number;
}) {
  const { user, isLoading, isAuthCheckSkipped } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = location.pathname + location.search + location.hash;
  const allowed = Boolean(user) && (!roles || roles.includes(user?.role ?? ''));
  const signedInWithoutAccess = Boolean(user) && !allowed;
  const text = signedInWithoutAccess ? NO_ACCESS_MESSAGE : message;
  const fromMail = !user && new URLSearchParams(location.search).get(FROM_MAIL_PARAM) === FROM_MAIL_VALUE;

  // Right after a logout the app is on its way to '/': no 'Unauthorized' for the page being left.
  // The skip window (docs/product/limits.md: 100 ms) is read when the guard renders, which a logout causes at once;
  // on a busy machine the effect itself may run later than 100 ms after the click.
  const skipped = !allowed && isAuthCheckSkipped();
  useEffect(() => {
    if (isLoading || allowed || skipped) return;
    if (fromMail) {
      // No toast and no red: the login form comes next and brings them back here afterwards.
      navigate('/login', {
        replace: true,
        state: { from, notice: FROM_MAIL_LOGIN_MESSAGE } satisfies ReturnState & LoginNotice,
      });
      return;
    }
    // Signed out, the toast speaks of this page only: it may go along to /login but no further
    // (ToastsFollowPage). Signed in without the role, it explains the dashboard they land on.
    toast.error('Unauthorized', text, { page: !signedInWithoutAccess });
    // Only a visitor who is not signed in is sent back here after logging in; a signed-in user who
    // lacks the role goes to their own dashboard instead (/login would only bounce them).
    const timer = setTimeout(
      () =>
        signedInWithoutAccess
          ? navigate(dashboardPathForRole(user?.role), { replace: true })
          : navigate('/login', { state: { from } satisfies ReturnState }),
      delayMs,
    );
    return () => clearTimeout(timer);
  }, [isLoading, allowed, skipped, fromMail, text, signedInWithoutAccess, delayMs, navigate, user, from]);

  // The lab requires two-factor sign-in of this staff member or admin: their profile sets it up first.
  const mustSetUp = allowed && Boolean(roles) && user?.twoFactorSetupRequired === true;
  useEffect(() => {
    if (!mustSetUp) return;
    toast.error('Two-factor sign-in required', TWO_FACTOR_SETUP_REQUIRED);
    navigate('/profile#two-factor', { replace: true });
  }, [mustSetUp, navigate]);

  if (isLoading || mustSetUp) return <LoadingScreen />;
  if (!allowed && fromMail) {
    return (
      <Container size="sm" py="xl">
        <Alert color="blue" title={FROM_MAIL_LOGIN_MESSAGE} role="status">
          Taking you to the login form...
        </Alert>
      </Container>
    );
  }
  if (!allowed) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="Unauthorized" role="alert">
          {text}
        </Alert>
      </Container>
    );
  }
  return <>{children}</>;
}
