import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

// Every new page opens at its top; Back and Forward return to where the reader was on that entry.
// The browser's own restoration is switched off: with lazily loaded pages it restores too early.

const positions = new Map<string, number>();
const RESTORE_TRIES_MS = 1500;

export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const restoring = useRef(false);
  const currentKey = useRef(location.key);

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      if (!restoring.current) positions.set(currentKey.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    currentKey.current = location.key;
    if (location.hash) return;
    const saved = navigationType === 'POP' ? positions.get(location.key) : undefined;
    if (!saved) {
      window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      return;
    }
    // The page may still be loading its chunk or data: try until it is tall enough, briefly.
    restoring.current = true;
    const started = performance.now();
    let frame = 0;
    const attempt = () => {
      window.scrollTo({ top: saved, left: 0, behavior: 'instant' });
      if (Math.abs(window.scrollY - saved) <= 2 || performance.now() - started > RESTORE_TRIES_MS) {
        restoring.current = false;
        positions.set(location.key, window.scrollY);
        return;
      }
      frame = requestAnimationFrame(attempt);
    };
    attempt();
    return () => {
      cancelAnimationFrame(frame);
      restoring.current = false;
    };
  }, [location.key, location.hash, navigationType]);

  return null;
}
