import { type NotificationData, notifications, notificationsStore } from '@mantine/notifications';

// The one toast helper: successes in a polite live region (role=status), errors as alerts.
// Where toasts sit and how many show at once: TOASTS below, used by web/components/ToastContainer.tsx
// (docs/decisions/0012a-web-conventions.md). Every form also shows its errors beside the field, so a
// toast is a second signal, never the only one.

/**
 * Bottom right, 3 at a time, at most 320 px wide; from 36em up web/app/global.css narrows them to the
 * margin beside the centred report dialog, so at 1280 px and wider they never cover it.
 */
export const TOASTS = { position: 'bottom-right', limit: 3, containerWidth: 320, zIndex: 1000 } as const;

const closeButtonProps = { 'aria-label': 'Close notification' };
const ERROR_KIND = 'data-toast-kind';
const PAGE_KIND = 'data-toast-scope';

/**
 * Shows one toast. The same error again replaces the one on screen instead of stacking a copy
 * (five presses of 'Add Element' make one toast, not five).
 */
function show(data: NotificationData & { id: string }) {
  notifications.updateState(notificationsStore, (list) => [...list.filter((n) => n.id !== data.id), data]);
}

let seq = 0;
/** Any success makes earlier error toasts stale: they go, so the good news is not queued behind them. */
function clearErrors() {
  notifications.updateState(notificationsStore, (list) => list.filter((n) => n[ERROR_KIND] !== 'error'));
}

const statusToast = (color: string, title: string, message?: string) =>
  show({
    id: `toast-${++seq}`,
    title,
    message: message ?? '',
    color,
    role: 'status',
    autoClose: 5000,
    closeButtonProps,
  });

export const toast = {
  success(title: string, message?: string) {
    clearErrors();
    statusToast('teal', title, message);
  },
  info(title: string, message?: string) {
    statusToast('blue', title, message);
  },
  error(title: string, message?: string, opts: { page?: boolean } = {}) {
    show({
      id: `error:${title}:${message ?? ''}`,
      [ERROR_KIND]: 'error',
      ...(opts.page ? { [PAGE_KIND]: 'page' } : {}),
      title,
      message: message ?? '',
      color: 'red',
      role: 'alert',
      autoClose: 8000,
      closeButtonProps,
    });
  },
  /**
   * Removes the toasts shown with `{page: true}`: those that speak of the page being left (a route
   * guard's 'Unauthorized'); web/components/ToastsFollowPage.tsx calls it when the visitor moves on.
   */
  dismissPageToasts() {
    notifications.updateState(notificationsStore, (list) => list.filter((n) => n[PAGE_KIND] !== 'page'));
  },
};
