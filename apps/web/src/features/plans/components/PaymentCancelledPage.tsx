// /dashboard/plans/cancel: the payment provider returns here when checkout is abandoned. The
// person goes straight back to the form the checkout was started from, told that nothing was
// charged; without one known (another tab, storage off) this page says so and offers the way on.
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '../../../components/Page';
import { clearCheckoutOrigin, readCheckoutOrigin } from '../../../lib/billing/checkout-origin';
import { clearPurchase } from '../../../lib/billing/checkout-purchase';
import { clearSnapshot } from '../../../lib/billing/payment-confirmation';
import { clearReturnTo } from '../../../lib/billing/return-to';
import { PATHS } from '../../../lib/paths';
import { notifyNotice } from '../../../lib/toast';

export const CANCELLED_WORDS = {
  title: 'Payment cancelled',
  text: 'Your payment was cancelled. No charges were made to your account.',
} as const;

export function PaymentCancelledPage() {
  const navigate = useNavigate();
  const [origin] = useState(readCheckoutOrigin);
  // Once: React's strict mode runs the effect twice in development, which would say it twice.
  const sent = useRef(false);

  // Nothing was paid: what the checkout remembered for the success page is of no more use.
  useEffect(() => {
    clearSnapshot();
    clearReturnTo();
    clearPurchase();
    clearCheckoutOrigin();
    if (origin === null || sent.current) return;
    sent.current = true;
    notifyNotice(CANCELLED_WORDS.text, CANCELLED_WORDS.title);
    navigate(origin, { replace: true });
  }, [origin, navigate]);

  if (origin !== null) return null;
  return (
    <Page title={CANCELLED_WORDS.title} size="sm">
      <Card py={40} data-testid="payment-cancelled">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={72} radius="xl" color="gray" variant="light">
            <IconCircleX size={40} />
          </ThemeIcon>
          <Title order={2} fz="xl">
            No worries
          </Title>
          <Text c="dimmed">{CANCELLED_WORDS.text}</Text>
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
