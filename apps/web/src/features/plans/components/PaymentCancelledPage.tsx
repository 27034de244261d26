import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleX } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { Page } from '../../../components/Page';
import { clearSnapshot } from '../../../lib/billing/payment-confirmation';
import { clearReturnTo } from '../../../lib/billing/return-to';
import { PATHS } from '../../../lib/paths';

/** /dashboard/plans/cancel: the payment provider returns here when checkout is abandoned. */
export function PaymentCancelledPage() {
  // Nothing was paid: what the checkout remembered for the success page is of no more use.
  useEffect(() => {
    clearSnapshot();
    clearReturnTo();
  }, []);

  return (
    <Page title="Payment cancelled" size="sm">
      <Card py={40} data-testid="payment-cancelled">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={72} radius="xl" color="gray" variant="light">
            <IconCircleX size={40} />
          </ThemeIcon>
          <Title order={2} fz="xl">
            No worries
          </Title>
          <Text c="dimmed">Your payment was cancelled. No charges were made to your account.</Text>
          <Group justify="center" mt="sm">
            <Button component={Link} to={PATHS.plans}>
              Try Again
            </Button>
            <Button component={Link} to={PATHS.dashboard} variant="default">
              Go to Dashboard
            </Button>
          </Group>
        </Stack>
      </Card>
    </Page>
  );
}
