// Accepting an invitation for a new address: choose a username and a password (registration's
// rules); the e-mail is the invited one.
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { filterUsernameInput, PASSWORD_MAX, USERNAME_MAX } from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';

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
        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          placeholder="your_name"
          description="Letters, numbers, underscores and hyphens"
          value={username}
          maxLength={USERNAME_MAX}
          onChange={(event) => setUsername(filterUsernameInput(event.currentTarget.value))}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="new-password"
          description="8 or more characters with an uppercase letter, a lowercase letter and a number"
          value={password}
          maxLength={PASSWORD_MAX}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <PasswordInput
          label="Confirm password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          maxLength={PASSWORD_MAX}
          onChange={(event) => setConfirmPassword(event.currentTarget.value)}
        />
        <Button type="submit" size="md" fullWidth loading={pending}>
          Create account and accept
        </Button>
      </Stack>
    </form>
  );
}
