// /onboarding/plans: pay now and keep 15% off every payment, for life. The same plan cards as the
// plans page with the discounted prices; signed-out visitors are asked to create an account first.
// Someone already subscribing changes plan on the plans page, where a downgrade is confirmed.
import { Button, Center, Loader, Stack } from '@mantine/core';
import {
  type BillingCycle,
  clientMayMoveTo,
  PAY_NOW_DISCOUNT_PERCENT,
  type PaidPlanName,
  type User,
} from '@ownvoice/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BillingCycleSwitch } from '../../../components/billing/BillingCycleSwitch';
import { NoBillingNotice } from '../../../components/billing/NoBillingNotice';
import { PlanCardGrid } from '../../../components/billing/PlanCardGrid';
import { TestModeNotice } from '../../../components/billing/TestModeNotice';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { planCardAction } from '../../../lib/billing/plan-card-action';
import { authPath, PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { usePayNow } from '../hooks/use-pay-now';
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
  if (!user) {
    return (
      <Button component={Link} to={authPath('register', PATHS.onboardingPlans)} fullWidth data-testid={testId}>
        Subscribe
      </Button>
    );
  }
  const action = planCardAction(user, { plan, billingCycle: cycle });
  if (action.kind === 'downgrade') {
    return (
      <Button component={Link} to={PATHS.plans} fullWidth variant="default" data-testid={testId}>
        {action.label}
      </Button>
    );
  }
  return (
    <Button
      fullWidth
      disabled={action.disabled || (busyPlan !== null && busyPlan !== plan)}
      loading={busyPlan === plan}
      onClick={onBuy}
      data-testid={testId}
      data-action={action.kind}
    >
      {action.label}
    </Button>
  );
}

export function OnboardingPlansPage() {
  const { user } = useSession();
  const billing = useBillingAvailability();
  const advance = useAdvanceOnboarding();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const { busyPlan, error, clearError, buy } = usePayNow(user);

  const step = user?.onboarding.step;
  useEffect(() => {
    if (step && clientMayMoveTo(step, 'pay_now_plans')) advance('pay_now_plans');
  }, [step, advance]);

  return (
    <OnboardingFrame
      title={`Pay now and save ${PAY_NOW_DISCOUNT_PERCENT}% for life`}
      intro={`Pick a plan: you keep ${PAY_NOW_DISCOUNT_PERCENT}% off every payment, renewals included, for as long as you stay.`}
      size="xl"
    >
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
          <ErrorAlert message={error} onClose={clearError} />
          <BillingCycleSwitch value={cycle} onChange={setCycle} />
          <PlanCardGrid
            cycle={cycle}
            payNow
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
