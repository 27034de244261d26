// /onboarding/plans: pay now and keep 15% off every payment, for life, while the account may still
// have the discount (a first plan); otherwise the list prices, and why. The same plan cards as the
// plans page; signed-out visitors are asked to create an account first. Someone already
// subscribing changes plan on the plans page, where the change is stated and confirmed.
import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { type BillingCycle, clientMayMoveTo, type PaidPlanName, type User } from '@ownvoice/shared';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BillingCycleSwitch } from '../../../components/billing/BillingCycleSwitch';
import { BillingProblemAlert } from '../../../components/billing/BillingProblemAlert';
import { NoBillingNotice } from '../../../components/billing/NoBillingNotice';
import { PlanCardGrid } from '../../../components/billing/PlanCardGrid';
import { TestModeNotice } from '../../../components/billing/TestModeNotice';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { planCardAction } from '../../../lib/billing/plan-card-action';
import { authPath, PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { useChosenPlan } from '../hooks/use-chosen-plan';
import { usePayNow } from '../hooks/use-pay-now';
import { onboardingPlanButton, payNowOffer } from '../pay-now-offer';
import { OnboardingFrame } from './OnboardingFrame';

function PlanButton({
  user,
  plan,
  cycle,
  busyPlan,
  onBuy,
}: {
  user: User | null;
  plan: PaidPlanName;
  cycle: BillingCycle;
  busyPlan: PaidPlanName | null;
  onBuy: () => void;
}) {
  const testId = `plan-button-${plan}`;
  const button = onboardingPlanButton(user, { plan, billingCycle: cycle });
  if (button.kind === 'register') {
    return (
      <Button component={Link} to={authPath('register', PATHS.onboardingPlans)} fullWidth data-testid={testId}>
        Subscribe
      </Button>
    );
  }
  if (button.kind === 'plans-page') {
    return (
      <Button component={Link} to={PATHS.plans} fullWidth variant="default" data-testid={testId}>
        {button.label}
      </Button>
    );
  }
  return (
    <Button
      fullWidth
      disabled={button.disabled || (busyPlan !== null && busyPlan !== plan)}
      loading={busyPlan === plan}
      onClick={onBuy}
      data-testid={testId}
    >
      {button.label}
    </Button>
  );
}

export function OnboardingPlansPage() {
  const { user } = useSession();
  const billing = useBillingAvailability();
  const advance = useAdvanceOnboarding();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const offer = payNowOffer(user);
  const { busyPlan, error, clearError, buy } = usePayNow(user, offer.discounted);
  useChosenPlan(user, billing.kind === 'selling', buy);

  const step = user?.onboarding.step;
  useEffect(() => {
    if (step && clientMayMoveTo(step, 'pay_now_plans')) advance('pay_now_plans');
  }, [step, advance]);

  return (
    <OnboardingFrame title={offer.title} intro={offer.intro} size="xl">
      {billing.kind === 'loading' && (
        <Center py={64}>
          <Loader aria-label="Loading plans" />
        </Center>
      )}
      {billing.kind === 'none' && (
        <NoBillingNotice
          actions={
            <Button component={Link} to={user ? PATHS.createVoice : authPath('register', PATHS.createVoice)}>
              Create your first Voice
            </Button>
          }
        />
      )}
      {billing.kind === 'selling' && (
        <Stack gap="lg">
          {billing.testMode && <TestModeNotice />}
          <BillingProblemAlert problem={error} onClose={clearError} />
          {offer.note && (
            <Alert color="gray" icon={<IconInfoCircle size={20} />} role="note" data-testid="pay-now-unavailable">
              {offer.note}
            </Alert>
          )}
          <BillingCycleSwitch value={cycle} onChange={setCycle} />
          <PlanCardGrid
            headingOrder={2}
            cycle={cycle}
            payNow={offer.discounted}
            isCurrent={(plan) => !!user && planCardAction(user, { plan, billingCycle: cycle }).kind === 'current'}
            renderAction={(plan) => (
              <PlanButton
                user={user}
                plan={plan}
                cycle={cycle}
                busyPlan={busyPlan}
                onBuy={() => void buy({ plan, billingCycle: cycle })}
              />
            )}
          />
        </Stack>
      )}
    </OnboardingFrame>
  );
}
