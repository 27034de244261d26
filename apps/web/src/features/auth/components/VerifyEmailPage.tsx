// /auth/verify?token=…: the e-mailed link that confirms an address, a sign-up's or a new one's.
// The token is posted once on arrival; the page then says the address is confirmed (or what it is
// now) and leads on, or says why the link did not work and where a new one comes from.
import { Alert, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/Page';
import { useVerifyEmail } from '../hooks/use-verify-email';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const { view, sessionKnown, retry } = useVerifyEmail(params.get('token') ?? '');
  const success = view.tone === 'success';

  return (
    <Page title={view.title} size="xs">
      <Card padding="xl" data-testid="verify-email" data-state={view.tone}>
        {view.tone === 'busy' ? (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text>{view.message}</Text>
          </Group>
        ) : (
          <Stack gap="md">
            <Alert
              color={success ? 'teal' : 'orange'}
              icon={success ? <IconCircleCheck size={20} /> : <IconAlertCircle size={20} />}
              role={success ? 'status' : 'alert'}
              data-testid="verify-email-result"
            >
              {view.message}
            </Alert>
            {view.canRetry && (
              <Button variant="default" onClick={retry}>
                Try again
              </Button>
            )}
            {view.action && sessionKnown && (
              <Button component={Link} to={view.action.to}>
                {view.action.label}
              </Button>
            )}
          </Stack>
        )}
      </Card>
    </Page>
  );
}
