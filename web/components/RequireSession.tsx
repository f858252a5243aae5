import { Alert, Container } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ReturnState } from '../lib/return-to';
import { useSession } from '../lib/session';
import { toast } from '../lib/toast';
import { LoadingScreen } from './LoadingScreen';

export const LOGGED_OUT_REDIRECT_MS = 500;

/**
 * A route guard with the spec's words: shows `message`, raises the 'Unauthorized' toast and goes to
 * /login after `delayMs`. The server enforces the same rules; this only spares a useless screen.
 */
export function RequireSession({
  children,
  roles,
  message = 'You are logged out. Redirecting to login...',
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

  // Right after a logout the app is on its way to '/': no 'Unauthorized' for the page being left.
  // The skip window (spec §4: 100 ms) is read when the guard renders, which a logout causes at once;
  // on a busy machine the effect itself may run later than 100 ms after the click.
  const skipped = !allowed && isAuthCheckSkipped();
  useEffect(() => {
    if (isLoading || allowed || skipped) return;
    toast.error('Unauthorized', message);
    // Only a visitor who is not signed in is sent back here after logging in; a signed-in user who
    // lacks the role would only meet this page again.
    const state: ReturnState | undefined = user ? undefined : { from };
    const timer = setTimeout(() => navigate('/login', { state }), delayMs);
    return () => clearTimeout(timer);
  }, [isLoading, allowed, skipped, message, delayMs, navigate, user, from]);

  if (isLoading) return <LoadingScreen />;
  if (!allowed) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title="Unauthorized" role="alert">
          {message}
        </Alert>
      </Container>
    );
  }
  return <>{children}</>;
}
