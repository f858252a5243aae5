import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// Mantine's toast container (its transitions, drag-to-dismiss and scroll lock, about 20 KB of gzip
// JavaScript) is loaded with the first toast, not with every page (docs/benchmarks.md, "Public pages").
// Toasts shown before it arrives wait in Mantine's store and appear as soon as it is mounted.
const ToastContainer = lazy(async () => ({ default: (await import('./ToastContainer')).ToastContainer }));

/** Where web/lib/toast.ts's toasts show, mounted from the first toast on. */
export function Toasts() {
  const { notifications, queue } = useNotifications(notificationsStore);
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}
