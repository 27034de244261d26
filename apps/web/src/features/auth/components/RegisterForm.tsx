import { Button, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { NewPasswordFields, UsernameField } from '../../../components/NewAccountFields';
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
        <UsernameField value={username} onChange={setUsername} />
        <EmailField value={email} onChange={setEmail} />
        <NewPasswordFields
          password={password}
          confirmPassword={confirmPassword}
          onPassword={setPassword}
          onConfirmPassword={setConfirmPassword}
        />
        <Button type="submit" size="md" fullWidth loading={pending} mt="xs">
          Create account
        </Button>
      </Stack>
    </form>
  );
}
