import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { filterUsernameInput, PASSWORD_MAX, USERNAME_MAX } from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useRegister } from '../hooks/use-register';
import { EmailField } from './EmailField';

export function RegisterForm() {
  const { register, pending, error, clearError } = useRegister();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    register({ username, email, password, confirmPassword });
  };

  // Rules are checked on submit, so the browser's own validation stays out of the way.
  return (
    <form onSubmit={submit} noValidate aria-label="Create account">
      <Stack gap="md">
        <ErrorAlert message={error} onClose={clearError} />
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
        <EmailField value={email} onChange={setEmail} />
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
        <Button type="submit" size="md" fullWidth loading={pending} mt="xs">
          Create account
        </Button>
      </Stack>
    </form>
  );
}
