// "Change address": the new address, the current password and, while two-factor is on, a code.
// Nothing changes until the link sent to the new address is opened.
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { EMAIL_LINK_HOURS, EMAIL_MAX, PASSWORD_MAX } from '@ownvoice/shared';
import type { FormEvent } from 'react';
import { AuthCodeField } from '../../../components/AuthCodeField';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import type { ChangeEmail } from '../hooks/use-change-email';

export function ChangeEmailDialog({ change, currentEmail }: { change: ChangeEmail; currentEmail: string }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change.submit();
  };

  return (
    <Dialog opened={change.open} onClose={change.close} title="Change your address" centered>
      <form onSubmit={submit} noValidate aria-label="Change address" data-testid="change-email-form">
        <Stack gap="md">
          <Text fz="sm">
            We send a link to the new address; your address changes when you open it (within {EMAIL_LINK_HOURS} hours).
            Until then it stays {currentEmail}.
          </Text>
          <TextInput
            label="New address"
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={change.input.email}
            maxLength={EMAIL_MAX}
            onChange={(event) => change.set('email')(event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={change.input.currentPassword}
            maxLength={PASSWORD_MAX}
            onChange={(event) => change.set('currentPassword')(event.currentTarget.value)}
          />
          {change.needsCode && <AuthCodeField value={change.input.code} onChange={change.set('code')} />}
          <ErrorAlert message={change.error} onClose={change.clearError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={change.close}>
              Cancel
            </Button>
            <Button type="submit" loading={change.busy}>
              Send the link
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
