// The dialog that makes a credential (an API key, a webhook) and then shows its secret, once. While
// the secret is on screen it closes only by its Done button, so a stray click outside does not
// lose it.
import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';

/** The props of a dialog that makes one kind of credential (NewApiKeyDialog, NewWebhookDialog). */
export interface NewCredentialDialogProps<Created, Input> {
  opened: boolean;
  busy: boolean;
  /** Two-factor is on (or the server said so): a code goes with the password. */
  needsCode: boolean;
  error: string | null;
  /** The credential just made, with its secret; null while the form shows. */
  created: Created | null;
  onSubmit: (input: Input) => void;
  onClose: () => void;
}

export function SecretOnceDialog({
  opened,
  showingSecret,
  title,
  error,
  onClose,
  testId,
  children,
}: {
  opened: boolean;
  /** The secret is on screen. */
  showingSecret: boolean;
  title: string;
  error: string | null;
  onClose: () => void;
  testId?: string;
  /** The form, or the secret with its Done button. */
  children: ReactNode;
}) {
  return (
    <Dialog
      opened={opened}
      onClose={showingSecret ? () => undefined : onClose}
      closeOnClickOutside={!showingSecret}
      withCloseButton={!showingSecret}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      {...(testId ? { 'data-testid': testId } : {})}
    >
      <Stack gap="md">
        <ErrorAlert message={error} />
        {children}
      </Stack>
    </Dialog>
  );
}
