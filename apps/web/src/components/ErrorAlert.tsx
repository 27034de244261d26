import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** The red box in which forms show what went wrong. */
export function ErrorAlert({ message, onClose }: { message: string | null; onClose?: () => void }) {
  if (!message) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={20} />}
      role="alert"
      data-testid="form-error"
      withCloseButton={onClose !== undefined}
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      {message}
    </Alert>
  );
}
