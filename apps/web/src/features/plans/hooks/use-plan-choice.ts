// The plan cards' state: the monthly/annual switch (the person's own cycle on a paid plan) and
// pressing a card's button: an upgrade (charged now, in full) and a downgrade (next period) are
// confirmed first; then the server either sends the person to the checkout (a first subscription)
// or changes the plan, which the page then shows.
import { type BillingCycle, isPaidPlan, type PaidPlanName, type PlanSelection } from '@ownvoice/shared';
import { useState } from 'react';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { planCardAction } from '../../../lib/billing/plan-card-action';
import { choosePlan } from '../../../lib/billing/plan-checkout';
import { planWithCycle } from '../../../lib/billing/plan-labels';
import { formatDate } from '../../../lib/format';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';

export interface PendingConfirmation {
  kind: 'upgrade' | 'downgrade';
  selection: PlanSelection;
}

export function usePlanChoice(onError: (problem: BillingProblem | null) => void) {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [cycle, setCycle] = useState<BillingCycle>(
    isPaidPlan(user.plan.name) ? (user.plan.billingCycle ?? 'monthly') : 'monthly',
  );
  const [busyPlan, setBusyPlan] = useState<PaidPlanName | null>(null);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);

  const run = async (selection: PlanSelection) => {
    const { kind } = planCardAction(user, selection);
    onError(null);
    setBusyPlan(selection.plan);
    try {
      const outcome = await choosePlan(selection, { user, returnTo: null });
      // The tab is on its way to the checkout: the button stays busy until it leaves.
      if (outcome.kind === 'checkout') return;
      await refresh();
      const target = planWithCycle(selection.plan, selection.billingCycle);
      if (outcome.kind === 'upgraded') {
        notifySuccess(`You are now on ${target}.`, 'Plan upgraded');
      } else {
        const when = outcome.effectiveAt ? `on ${formatDate(outcome.effectiveAt)}` : 'at the end of this period';
        notifySuccess(`Your plan changes to ${target} ${when}.`, 'Downgrade scheduled');
      }
    } catch (error) {
      onError(
        billingProblem(
          error,
          kind === 'subscribe' ? BILLING_MESSAGES.planCheckoutFailed : BILLING_MESSAGES.changePlanFailed,
        ),
      );
    }
    setBusyPlan(null);
  };

  const choose = (selection: PlanSelection) => {
    const action = planCardAction(user, selection);
    if (action.disabled || busyPlan !== null) return;
    if (action.kind === 'downgrade' || action.kind === 'upgrade') setConfirming({ kind: action.kind, selection });
    else void run(selection);
  };

  const confirm = () => {
    if (confirming === null) return;
    setConfirming(null);
    void run(confirming.selection);
  };

  return { cycle, setCycle, busyPlan, choose, confirming, confirm, cancel: () => setConfirming(null) };
}
