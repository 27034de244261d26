// Accepting an invitation for a new address: choose a username and a password (registration's
// rules); the e-mail is the invited one.
import { Button, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { NewPasswordFields, UsernameField } from '../../../components/NewAccountFields';

export interface InvitationSignUpFormProps {
  email: string;
  pending: boolean;
  error: string | null;
  onClearError: () => void;
  onSubmit: (form: { username: string; email: string; password: string; confirmPassword: string }) => void;
}

export function InvitationSignUpForm({ email, pending, error, onClearError, onSubmit }: InvitationSignUpFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ username, email, password, confirmPassword });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Accept invitation">
      <Stack gap="md">
        <ErrorAlert message={error} onClose={onClearError} />
        <TextInput label="E-mail" value={email} readOnly disabled />
        <UsernameField value={username} onChange={setUsername} />
        <NewPasswordFields
          password={password}
          confirmPassword={confirmPassword}
          onPassword={setPassword}
          onConfirmPassword={setConfirmPassword}
        />
        <Button type="submit" size="md" fullWidth loading={pending}>
          Create account and accept
        </Button>
      </Stack>
    </form>
  );
}
