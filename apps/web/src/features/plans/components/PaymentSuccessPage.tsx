import { Button, Card, Code, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/plans/success: the payment provider returns here with the checkout session id. */
export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  return (
    <Page title="Payment successful" size="sm">
      <Card py={40}>
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={72} radius="xl" color="teal" variant="light">
            <IconCircleCheck size={40} />
          </ThemeIcon>
          <Title order={2} fz="xl">
            Thank you!
          </Title>
          <Text c="dimmed">Your payment went through. Your new usage is available right away.</Text>
          {sessionId && (
            <Text fz="sm" data-testid="transaction-id">
              Transaction ID: <Code style={{ wordBreak: 'break-all' }}>{sessionId}</Code>
            </Text>
          )}
          <Group justify="center" mt="sm">
            <Button component={Link} to={PATHS.dashboard}>
              Go to Dashboard
            </Button>
            <Button component={Link} to={PATHS.account} variant="default">
              View account
            </Button>
          </Group>
        </Stack>
      </Card>
    </Page>
  );
}
