// /auth/forgot: the address to send a reset link to. The answer is the same whether or not an
// account uses it, so the page says what happens next either way.
import { Alert, Anchor, Button, Card, Stack, Text } from '@mantine/core';
import { forgotPasswordBodySchema } from '@ownvoice/shared';
import { IconMailForward } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { parseForm } from '../../../lib/form-error';
import { authPath } from '../../../lib/paths';
import { useSubmit } from '../../../lib/use-submit';
import { askPasswordReset } from '../api';
import { EmailField } from './EmailField';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, clearError, run } = useSubmit();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await run(
      () => askPasswordReset(parseForm(forgotPasswordBodySchema, { email })),
      'Could not send the link. Please try again in a moment.',
    );
    if (outcome?.ok) setSent(outcome.value);
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
              <ErrorAlert message={error} onClose={clearError} />
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
