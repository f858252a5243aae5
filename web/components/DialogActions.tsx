import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** A form dialog's buttons, right-aligned: Cancel, then the submit button that names what it does. */
export function DialogActions({
  onCancel,
  loading,
  children,
}: {
  onCancel: () => void;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={loading}>
        {children}
      </Button>
    </Group>
  );
}
