// /onboarding/pay-later: a card is saved with the payment provider, the trial starts, and the
// Minimum plan follows by itself after a day (or as soon as the trial is finished).
import { Button, Card, Center, List, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { isPaidPlan, TRIAL_HOURS, TRIAL_START_STATEMENT } from '@ownvoice/shared';
import { IconCheck, IconCreditCard } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { BillingProblemAlert } from '../../../components/billing/BillingProblemAlert';
import { NoBillingNotice } from '../../../components/billing/NoBillingNotice';
import { TestModeNotice } from '../../../components/billing/TestModeNotice';
import { EmailConfirmationAlert } from '../../../components/EmailConfirmationAlert';
import { startPayLaterSetup } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem, isTrialUnavailable } from '../../../lib/billing/billing-problem';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { goToCheckout } from '../../../lib/billing/go-to-checkout';
import { authPath, PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { useConfirmationGate } from '../../../lib/session/use-confirmation-gate';
import { trialAllowanceLines } from '../trial-copy';
import { OnboardingFrame } from './OnboardingFrame';

function StartTrial() {
  const { user } = useSession();
  // The trial needs a confirmed address: say so before the button, which waits for it.
  const confirmation = useConfirmationGate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BillingProblem | null>(null);
  // No second trial for this person: the way on is a plan, so that replaces the trial's button.
  const [trialRefused, setTrialRefused] = useState(false);

  if (!user) {
    return (
      <Button
        component={Link}
        to={authPath('register', PATHS.onboardingPayLater)}
        size="md"
        data-testid="pay-later-start"
      >
        Create an account to start
      </Button>
    );
  }
  if (user.plan.name === 'trial' || isPaidPlan(user.plan.name)) {
    return (
      <Stack gap="xs" align="center">
        <Text fw={600}>{user.plan.name === 'trial' ? 'Your trial is running.' : 'You already have a plan.'}</Text>
        <Button component={Link} to={PATHS.createVoice} size="md">
          Create your first Voice
        </Button>
      </Stack>
    );
  }

  const start = async () => {
    setError(null);
    setBusy(true);
    try {
      const { url } = await startPayLaterSetup();
      goToCheckout(url, { user, returnTo: null });
    } catch (cause) {
      if (!confirmation.takeError(cause)) {
        setError(billingProblem(cause, BILLING_MESSAGES.planCheckoutFailed));
        setTrialRefused(isTrialUnavailable(cause));
      }
      setBusy(false);
    }
  };

  return (
    <Stack gap="sm" align="center" w="100%">
      <BillingProblemAlert problem={error} onClose={() => setError(null)} />
      <EmailConfirmationAlert notice={confirmation.notice} />
      {trialRefused ? (
        <Button component={Link} to={PATHS.onboardingPlans} size="md" data-testid="pay-later-choose-plan">
          Choose a plan
        </Button>
      ) : (
        <Button
          size="md"
          onClick={start}
          loading={busy}
          disabled={confirmation.blocked}
          leftSection={<IconCreditCard size={18} />}
          data-testid="pay-later-start"
        >
          Add a card and start the trial
        </Button>
      )}
    </Stack>
  );
}

export function PayLaterPage() {
  const billing = useBillingAvailability();
  return (
    <OnboardingFrame
      title="Try first, pay later"
      intro={`Save a card, then use OwnVoice for ${TRIAL_HOURS} hours on a trial.`}
    >
      {billing.kind === 'loading' && (
        <Center py={64}>
          <Loader aria-label="Loading" />
        </Center>
      )}
      {billing.kind === 'none' && <NoBillingNotice />}
      {billing.kind === 'selling' && (
        <Card padding="xl" data-testid="pay-later">
          <Stack gap="lg" align="center" ta="center">
            {billing.testMode && <TestModeNotice />}
            <Title order={2} fz="xl">
              Your trial includes
            </Title>
            <List
              spacing="xs"
              ta="left"
              icon={
                <ThemeIcon size={20} radius="xl" variant="light" color="teal">
                  <IconCheck size={12} stroke={3} />
                </ThemeIcon>
              }
            >
              {trialAllowanceLines().map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
            <Text fw={600} maw={560} data-testid="first-charge">
              {TRIAL_START_STATEMENT}
            </Text>
            <Text c="dimmed" fz="sm" maw={520}>
              The Minimum plan comes with its own usage; what is left of the trial carries over. You can finish the
              trial sooner, or choose another plan, from Buy More Usage.
            </Text>
            <StartTrial />
          </Stack>
        </Card>
      )}
    </OnboardingFrame>
  );
}
