// /auth/reset?token=…: the e-mailed link's page. A new password (twice), and the code from the
// authenticator app when the server says two-factor is on; then every session is ended and the
// person signs in with the new password.
import { Alert, Anchor, Button, Card, PasswordInput, Stack, TextInput } from '@mantine/core';
import {
  filterLoginCodeInput,
  firstIssueMessage,
  MESSAGES,
  PASSWORD_MAX,
  resetPasswordBodySchema,
} from '@ownvoice/shared';
import { IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { authPath, PATHS } from '../../../lib/paths';
import { resetPassword } from '../api';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      setError(MESSAGES.passwordMismatch);
      return;
    }
    const parsed = resetPasswordBodySchema.safeParse({ token, password, ...(needsCode ? { mfaToken: code } : {}) });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setDone(await resetPassword(parsed.data));
    } catch (cause) {
      if (isApiError(cause) && cause.code === 'MFA_REQUIRED') setNeedsCode(true);
      setError(errorMessage(cause, 'Could not change the password. Please try again.'));
    }
    setBusy(false);
  };

  if (done) {
    return (
      <Page title="Password changed" size="xs">
        <Card padding="xl">
          <Stack gap="md">
            <Alert color="teal" icon={<IconCircleCheck size={20} />} data-testid="reset-done">
              {done}
            </Alert>
            <Button component={Link} to={authPath('login')}>
              Log in
            </Button>
          </Stack>
        </Card>
      </Page>
    );
  }

  return (
    <Page title="Choose a new password" size="xs">
      <Card padding="xl">
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="New password">
          <Stack gap="md">
            <ErrorAlert message={error} onClose={() => setError(null)} />
            {token === '' && (
              <Alert color="orange">
                This page needs the link from the e-mail.{' '}
                <Anchor component={Link} to={PATHS.forgotPassword} td="underline">
                  Ask for a new one
                </Anchor>
                .
              </Alert>
            )}
            <PasswordInput
              label="New password"
              name="password"
              autoComplete="new-password"
              value={password}
              maxLength={PASSWORD_MAX}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <PasswordInput
              label="New password again"
              name="confirmPassword"
              autoComplete="new-password"
              value={confirm}
              maxLength={PASSWORD_MAX}
              onChange={(event) => setConfirm(event.currentTarget.value)}
            />
            {needsCode && (
              <TextInput
                label="Authentication code"
                description="Two-factor is on for this account: the code from your authenticator app, or a backup code."
                name="mfaToken"
                autoComplete="one-time-code"
                value={code}
                onChange={(event) => setCode(filterLoginCodeInput(event.currentTarget.value))}
              />
            )}
            <Button type="submit" loading={busy} disabled={token === ''} fullWidth>
              Set the new password
            </Button>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
