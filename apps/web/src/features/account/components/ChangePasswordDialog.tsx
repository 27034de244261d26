// "Change password": the current password, the new one twice (the sign-up fields and hints) and,
// while two-factor is on, a code.
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MAX } from '@ownvoice/shared';
import type { FormEvent } from 'react';
import { AuthCodeField } from '../../../components/AuthCodeField';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { NewPasswordFields } from '../../../components/NewAccountFields';
import { useCurrentUser } from '../../../lib/session/session-context';
import type { ChangePassword } from '../hooks/use-change-password';

export function ChangePasswordDialog({ change }: { change: ChangePassword }) {
  const user = useCurrentUser();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change.submit();
  };

  return (
    <Dialog opened={change.open} onClose={change.close} title="Change your password" centered>
      <form onSubmit={submit} noValidate aria-label="Change password" data-testid="change-password-form">
        <Stack gap="md">
          {/* For password managers: whose password this is (not shown, not read out). */}
          <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordInput
            label="Current password"
            name="currentPassword"
            autoComplete="current-password"
            value={change.input.currentPassword}
            maxLength={PASSWORD_MAX}
            onChange={(event) => change.set('currentPassword')(event.currentTarget.value)}
            data-autofocus
          />
          <NewPasswordFields
            password={change.input.password}
            confirmPassword={change.input.confirmPassword}
            onPassword={change.set('password')}
            onConfirmPassword={change.set('confirmPassword')}
            passwordLabel="New password"
            confirmLabel="Confirm new password"
          />
          {change.needsCode && <AuthCodeField value={change.input.code} onChange={change.set('code')} />}
          <ErrorAlert message={change.error} onClose={change.clearError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={change.close}>
              Cancel
            </Button>
            <Button type="submit" loading={change.busy}>
              Save the new password
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
