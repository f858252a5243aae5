import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';

/** A required free-text answer the dialog asks for (a reason, a reviewer's comment). */
export type ConfirmReason = {
  label: string;
  name: string;
  value: string;
  error: string | null;
  maxLength?: number;
  onChange: (value: string) => void;
};

/**
 * Asks before an action that cannot be taken back by the same button (signing out everywhere,
 * deactivating, revoking, sending a report back), optionally with a required `reason` text.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red',
  loading,
  reason,
  centered = true,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  loading?: boolean;
  reason?: ConfirmReason;
  centered?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered={centered}>
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        {reason ? (
          <Textarea
            label={reason.label}
            name={reason.name}
            required
            autosize
            minRows={3}
            maxLength={reason.maxLength}
            value={reason.value}
            error={reason.error}
            onChange={(e) => reason.onChange(e.currentTarget.value)}
          />
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={color} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
