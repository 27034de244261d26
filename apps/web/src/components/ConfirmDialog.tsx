// A yes/no question in a modal, for actions that must be confirmed first (delete, visibility).
// It opens on the safe answer, so an Enter pressed out of habit never deletes or pays.
import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Dialog } from './Dialog';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red for actions that destroy something. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  danger,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      opened={opened}
      onClose={onCancel}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      data-testid="confirm-dialog"
    >
      <Stack gap="lg">
        <Text fz="sm">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
