// The second-factor code for a sensitive admin action: a current authenticator code or a backup
// code. A refused code leaves the dialog open with the server's reason, to try another.
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { filterMfaCode, isMfaCodeComplete, MFA_CODE_HINT } from '../mfa-retry';

export interface MfaDialogProps {
  error: string | null;
  busy: boolean;
  onSubmit: (code: string) => void;
  onCancel: () => void;
}

export function MfaDialog({ error, busy, onSubmit, onCancel }: MfaDialogProps) {
  const [code, setCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isMfaCodeComplete(code) && !busy) onSubmit(code);
  };

  return (
    <Dialog
      opened
      onClose={onCancel}
      title="Confirm with two-factor"
      centered
      // Above any modal the action was started from (a grant or limits form).
      zIndex={400}
      closeOnClickOutside={!busy}
      data-testid="mfa-dialog"
    >
      <form onSubmit={submit} noValidate aria-label="Two-factor confirmation">
        <Stack gap="md">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconShieldLock size={20} aria-hidden="true" />
            <Text fz="sm">
              This action needs a fresh code from your authenticator app, or one of your backup codes.
            </Text>
          </Group>
          <TextInput
            label="Authentication code"
            description={MFA_CODE_HINT}
            name="mfaToken"
            autoComplete="one-time-code"
            placeholder="123456"
            value={code}
            // No maxLength: a backup code pasted as issued ("abcd-efgh") is longer than the code it is.
            onChange={(event) => setCode(filterMfaCode(event.currentTarget.value))}
            data-autofocus
            data-testid="mfa-code"
            styles={{ input: { letterSpacing: '0.3em', fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <ErrorAlert message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!isMfaCodeComplete(code)} data-testid="mfa-submit">
              Confirm
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
