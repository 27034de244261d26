// /auth/reset?token=…: the e-mailed link's page. A new password (twice), and the code from the
// authenticator app when the server says two-factor is on; then every session is ended and the
// person signs in with the new password.
import { Alert, Anchor, Button, Card, Stack } from '@mantine/core';
import { MESSAGES, resetPasswordBodySchema } from '@ownvoice/shared';
import { IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthCodeField } from '../../../components/AuthCodeField';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { NewPasswordFields } from '../../../components/NewAccountFields';
import { Page } from '../../../components/Page';
import { isApiError } from '../../../lib/api-error';
import { FormError, parseForm } from '../../../lib/form-error';
import { authPath, PATHS } from '../../../lib/paths';
import { useSubmit } from '../../../lib/use-submit';
import { resetPassword } from '../api';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, clearError, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await run(async () => {
      if (password !== confirm) throw new FormError(MESSAGES.passwordMismatch);
      const body = parseForm(resetPasswordBodySchema, { token, password, ...(needsCode ? { mfaToken: code } : {}) });
      return resetPassword(body);
    }, 'Could not change the password. Please try again.');
    if (outcome?.ok) setDone(outcome.value);
    else if (outcome && isApiError(outcome.cause) && outcome.cause.code === 'MFA_REQUIRED') setNeedsCode(true);
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
            <ErrorAlert message={error} onClose={clearError} />
            {token === '' && (
              <Alert color="orange">
                This page needs the link from the e-mail.{' '}
                <Anchor component={Link} to={PATHS.forgotPassword} td="underline">
                  Ask for a new one
                </Anchor>
                .
              </Alert>
            )}
            <NewPasswordFields
              password={password}
              confirmPassword={confirm}
              onPassword={setPassword}
              onConfirmPassword={setConfirm}
              passwordLabel="New password"
              confirmLabel="New password again"
            />
            {needsCode && <AuthCodeField value={code} onChange={setCode} />}
            <Button type="submit" loading={busy} disabled={token === ''} fullWidth>
              Set the new password
            </Button>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
