// Delete Account: confirmed with the password (and a code when two-factor is on), then final.
// Why it works this way: docs/decisions/0009-account-deletion-and-admin-gate.md.
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { ACCOUNT_MESSAGES, DELETE_ACCOUNT_MESSAGES, filterLoginCodeInput, LOGIN_CODE_MIN } from '@ownvoice/shared';
import { IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useSession } from '../../../lib/session/session-context';
import { deleteAccount } from '../api';

export function DeleteAccountButton() {
  const { user, logout } = useSession();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needsCode = user?.mfaEnabled ?? false;

  const close = () => {
    setOpen(false);
    setPassword('');
    setCode('');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(DELETE_ACCOUNT_MESSAGES.passwordRequired);
    if (needsCode && code.length < LOGIN_CODE_MIN) return setError(DELETE_ACCOUNT_MESSAGES.codeRequired);
    setBusy(true);
    setError(null);
    try {
      await deleteAccount({ password, ...(needsCode ? { mfaToken: code } : {}) });
      // The session died with the account: sign out here and go home.
      logout();
    } catch (e) {
      setError(errorMessage(e, ACCOUNT_MESSAGES.deleteFailed));
      setBusy(false);
    }
  };

  return (
    <>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpen(true)}>
        Delete Account
      </Button>
      <Dialog opened={open} onClose={close} title="Delete your account" centered data-testid="delete-account-dialog">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text fz="sm">{DELETE_ACCOUNT_MESSAGES.confirm}</Text>
            <PasswordInput
              label="Your password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              data-autofocus
            />
            {needsCode && (
              <TextInput
                label="Code from your authenticator app (or a backup code)"
                value={code}
                onChange={(e) => setCode(filterLoginCodeInput(e.currentTarget.value))}
                autoComplete="one-time-code"
              />
            )}
            <ErrorAlert message={error} onClose={() => setError(null)} />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Keep my account
              </Button>
              <Button type="submit" color="red" loading={busy}>
                Delete my account for good
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
    </>
  );
}
