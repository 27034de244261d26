// /auth/forgot: the address to send a reset link to. The answer is the same whether or not an
// account uses it, so the page says what happens next either way.
import { Alert, Anchor, Button, Card, Stack, Text } from '@mantine/core';
import { firstIssueMessage, forgotPasswordBodySchema } from '@ownvoice/shared';
import { IconMailForward } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { errorMessage } from '../../../lib/api-error';
import { authPath } from '../../../lib/paths';
import { askPasswordReset } from '../api';
import { EmailField } from './EmailField';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordBodySchema.safeParse({ email });
    if (!parsed.success) {
      setError(firstIssueMessage(parsed.error));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setSent(await askPasswordReset(parsed.data));
    } catch (cause) {
      setError(errorMessage(cause, 'Could not send the link. Please try again in a moment.'));
    }
    setBusy(false);
  };

  return (
    <Page title="Forgot your password?" description="We send a link to choose a new one." size="xs">
      <Card padding="xl">
        {sent ? (
          <Stack gap="md">
            <Alert
              color="teal"
              icon={<IconMailForward size={20} />}
              title="Check your e-mail"
              data-testid="forgot-sent"
            >
              {sent}
            </Alert>
            <Text fz="sm">
              Nothing arrived? Look in your spam folder, or{' '}
              <Anchor component="button" type="button" onClick={() => setSent(null)} td="underline">
                send it again
              </Anchor>
              .
            </Text>
            <Anchor component={Link} to={authPath('login')} fz="sm" td="underline">
              Back to login
            </Anchor>
          </Stack>
        ) : (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Forgot password">
            <Stack gap="md">
              <ErrorAlert message={error} onClose={() => setError(null)} />
              <EmailField value={email} onChange={setEmail} />
              <Button type="submit" loading={busy} fullWidth>
                Send me a link
              </Button>
              <Anchor component={Link} to={authPath('login')} fz="sm" td="underline">
                Back to login
              </Anchor>
            </Stack>
          </form>
        )}
      </Card>
    </Page>
  );
}
