// /dashboard/plans/success: the payment provider returns here with the checkout session id
// (and source=pay_now after the onboarding checkout). The page says what was bought and for how
// much, waits for the payment to reach the account, then offers what to do next, or goes back to
// where a pack was bought from.
import { Button, Card, Code, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { PAY_NOW_DISCOUNT_PERCENT } from '@ownvoice/shared';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/Page';
import { readPurchase } from '../../../lib/billing/checkout-purchase';
import type { ConfirmationState } from '../../../lib/billing/payment-confirmation';
import { readReturnTo } from '../../../lib/billing/return-to';
import { useSession } from '../../../lib/session/session-context';
import { useAutoContinue } from '../hooks/use-auto-continue';
import { usePaymentConfirmation } from '../hooks/use-payment-confirmation';
import { autoContinueTarget, nextSteps, successWording } from '../success';
import { PurchaseSummary } from './PurchaseSummary';

function ContinueWhereYouWere({ target, state }: { target: string; state: ConfirmationState }) {
  const { counting, secondsLeft, go, stay } = useAutoContinue(autoContinueTarget(target, state));
  return (
    <Stack gap={6} align="center">
      <Group justify="center" gap="sm">
        <Button onClick={go} data-testid="payment-continue">
          Continue where you were
        </Button>
        {counting && (
          <Button variant="subtle" onClick={stay}>
            Stay here
          </Button>
        )}
      </Group>
      {counting && (
        <Text fz="xs" c="dimmed" aria-live="polite">
          Taking you back in {secondsLeft} s…
        </Text>
      )}
    </Stack>
  );
}

export function PaymentSuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id');
  const payNow = params.get('source') === 'pay_now';
  const payLater = params.get('source') === 'pay_later';
  const { user } = useSession();
  const state = usePaymentConfirmation();
  const [returnTo] = useState(readReturnTo);
  const [purchase] = useState(() => readPurchase(sessionId));
  const [primary, secondary] = nextSteps(user);
  const words = successWording(state, payLater);

  return (
    <Page title={words.pageTitle} size="sm">
      <Card py={40} data-testid="payment-success" data-state={state}>
        <Stack align="center" ta="center" gap="md">
          {state === 'confirming' ? (
            <>
              <Loader size="xl" aria-hidden="true" />
              <Title order={2} fz="xl" aria-live="polite">
                {words.confirming.heading}
              </Title>
              <Text c="dimmed">{words.confirming.text}</Text>
            </>
          ) : (
            <>
              <ThemeIcon size={72} radius="xl" color="teal" variant="light">
                <IconCircleCheck size={40} />
              </ThemeIcon>
              <Title order={2} fz="xl">
                {words.settled.heading}
              </Title>
              <Text c="dimmed" data-testid="payment-success-text">
                {words.settled.text}
              </Text>
            </>
          )}
          {purchase && state !== 'trial_refused' && (
            <PurchaseSummary purchase={purchase} settled={state !== 'confirming'} />
          )}
          {payNow && (
            <Text fz="sm">
              You keep {PAY_NOW_DISCOUNT_PERCENT}% off every payment of your plan, for as long as you stay.
            </Text>
          )}
          {sessionId && (
            <Text fz="sm">
              Transaction ID:{' '}
              <Code style={{ wordBreak: 'break-all' }} data-testid="payment-transaction-id">
                {sessionId}
              </Code>
            </Text>
          )}
          {returnTo && <ContinueWhereYouWere target={returnTo} state={state} />}
          <Group justify="center" mt="sm">
            {primary && (
              <Button component={Link} to={primary.to} variant={returnTo ? 'default' : 'filled'}>
                {primary.label}
              </Button>
            )}
            {secondary && (
              <Button component={Link} to={secondary.to} variant="default">
                {secondary.label}
              </Button>
            )}
          </Group>
        </Stack>
      </Card>
    </Page>
  );
}
