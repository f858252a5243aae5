import { Notifications } from '@mantine/notifications';
import { TOASTS } from '../lib/toast';

/** Mantine's toast container, placed as TOASTS says; loaded by web/components/Toasts.tsx. */
export function ToastContainer() {
  return <Notifications {...TOASTS} />;
}
