import { notifications } from '@mantine/notifications';

// The one toast helper: successes in a polite live region (role=status), errors as alerts.

const closeButtonProps = { 'aria-label': 'Close notification' };
export const toast = {
  success(title: string, message?: string) {
    notifications.show({
      title,
      message: message ?? '',
      color: 'teal',
      role: 'status',
      autoClose: 5000,
      closeButtonProps,
    });
  },
  info(title: string, message?: string) {
    notifications.show({
      title,
      message: message ?? '',
      color: 'blue',
      role: 'status',
      autoClose: 5000,
      closeButtonProps,
    });
  },
  error(title: string, message?: string) {
    notifications.show({
      title,
      message: message ?? '',
      color: 'red',
      role: 'alert',
      autoClose: 8000,
      closeButtonProps,
    });
  },
};
