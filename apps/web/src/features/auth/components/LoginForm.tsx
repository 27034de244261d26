import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { filterLoginCodeInput, LOGIN_CODE_MIN, PASSWORD_MAX } from '@ownvoice/shared';
import { IconArrowLeft, IconShieldLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { PATHS } from '../../../lib/paths';
import { useLogin } from '../hooks/use-login';
import { EmailField } from './EmailField';

export function LoginForm() {
  const { step, login, pending, error, clearError, backToCredentials } = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');

  const submitCredentials = (event: FormEvent) => {
    event.preventDefault();
    login({ email, password });
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (code.length < LOGIN_CODE_MIN) return;
    login({ email, password, mfaToken: code });
  };

  if (step === 'code') {
    return (
      <form onSubmit={submitCode} noValidate aria-label="Two-factor code">
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size={40} radius="md">
              <IconShieldLock size={22} />
            </ThemeIcon>
            <div>
              <Text fw={700}>Two-factor authentication</Text>
              <Text fz="sm" c="dimmed">
                Enter the 6-digit code from your authenticator app, or one of your backup codes.
              </Text>
            </div>
          </Group>
          <ErrorAlert message={error} onClose={clearError} />
          <TextInput
            label="Authentication code"
            name="mfaToken"
            autoComplete="one-time-code"
            inputMode="text"
            placeholder="123456"
            autoFocus
            value={code}
            // No maxLength: a backup code pasted as issued ("abcd-efgh") is one longer than the
            // code it is; the filter drops the dash and keeps at most LOGIN_CODE_MAX characters.
            onChange={(event) => setCode(filterLoginCodeInput(event.currentTarget.value))}
            styles={{ input: { letterSpacing: '0.3em', fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Button type="submit" size="md" fullWidth loading={pending} disabled={code.length < LOGIN_CODE_MIN}>
            Verify and log in
          </Button>
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() => {
              setCode('');
              backToCredentials();
            }}
          >
            <Group gap={4} justify="center">
              <IconArrowLeft size={14} aria-hidden="true" />
              Back to login
            </Group>
          </Anchor>
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={submitCredentials} noValidate aria-label="Login">
      <Stack gap="md">
        <ErrorAlert message={error} onClose={clearError} />
        <EmailField value={email} onChange={setEmail} />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          maxLength={PASSWORD_MAX}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Anchor component={Link} to={PATHS.forgotPassword} fz="sm" ta="right" mt={-8} td="underline">
          Forgot password?
        </Anchor>
        <Button type="submit" size="md" fullWidth loading={pending} mt="xs">
          Log in
        </Button>
      </Stack>
    </form>
  );
}
