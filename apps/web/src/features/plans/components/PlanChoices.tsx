// The plan cards of /dashboard/plans: the monthly/annual switch, and on each card Current plan,
// Subscribe, Upgrade or Downgrade as fits the person's plan; upgrades and downgrades are asked first.
import { Button, Stack } from '@mantine/core';
import { BillingCycleSwitch } from '../../../components/billing/BillingCycleSwitch';
import { PlanCardGrid } from '../../../components/billing/PlanCardGrid';
import type { BillingProblem } from '../../../lib/billing/billing-problem';
import { planCardAction } from '../../../lib/billing/plan-card-action';
import { useCurrentUser } from '../../../lib/session/session-context';
import { usePlanChoice } from '../hooks/use-plan-choice';
import { DowngradeDialog } from './DowngradeDialog';
import { UpgradeDialog } from './UpgradeDialog';

export function PlanChoices({ onError }: { onError: (problem: BillingProblem | null) => void }) {
  const user = useCurrentUser();
  const { cycle, setCycle, busyPlan, choose, confirming, confirm, cancel } = usePlanChoice(onError);

  return (
    <Stack gap="lg">
      <BillingCycleSwitch value={cycle} onChange={setCycle} />
      <PlanCardGrid
        headingOrder={2}
        cycle={cycle}
        payNow={user.plan.payNowDiscount}
        isCurrent={(plan) => planCardAction(user, { plan, billingCycle: cycle }).kind === 'current'}
        renderAction={(plan) => {
          const action = planCardAction(user, { plan, billingCycle: cycle });
          return (
            <Button
              fullWidth
              variant={action.kind === 'downgrade' ? 'default' : 'filled'}
              disabled={action.disabled || (busyPlan !== null && busyPlan !== plan)}
              loading={busyPlan === plan}
              onClick={() => choose({ plan, billingCycle: cycle })}
              data-testid={`plan-button-${plan}`}
              data-action={action.kind}
            >
              {action.label}
            </Button>
          );
        }}
      />
      {/* One dialog in the page at a time, so there is one confirm-dialog to find. */}
      {confirming?.kind === 'upgrade' ? (
        <UpgradeDialog user={user} target={confirming.selection} onConfirm={confirm} onCancel={cancel} />
      ) : (
        <DowngradeDialog user={user} target={confirming?.selection ?? null} onConfirm={confirm} onCancel={cancel} />
      )}
    </Stack>
  );
}
