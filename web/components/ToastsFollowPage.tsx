import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { toast } from '../lib/toast';

/**
 * A route guard's toast speaks of the page it guards: it may stay while the guard takes the visitor to
 * /login, and goes as soon as they move anywhere else (Forgot password, Home…), where it would be wrong.
 */
export function ToastsFollowPage() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (pathname !== '/login') toast.dismissPageToasts();
  }, [pathname]);
  return null;
}
