// Pay now at onboarding: the first plan checkout with the discount. Someone the server finds
// already subscribing gets an ordinary plan change instead (the pay-now call answers 409).
import type { PaidPlanName, PlanSelection, User } from '@ownvoice/shared';
import { useState } from 'react';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { payNowForPlan } from '../../../lib/billing/plan-checkout';
import { planWithCycle } from '../../../lib/billing/plan-labels';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';

export function usePayNow(user: User | null) {
  const { refresh } = useSession();
  const [busyPlan, setBusyPlan] = useState<PaidPlanName | null>(null);
  const [error, setError] = useState<string | null>(null);

  const buy = async (selection: PlanSelection) => {
    setError(null);
    setBusyPlan(selection.plan);
    try {
      const outcome = await payNowForPlan(selection, { user, returnTo: null });
      if (outcome.kind === 'checkout') return;
      await refresh();
      notifySuccess(
        `Your plan ${outcome.kind === 'upgraded' ? 'is now' : 'changes to'} ${planWithCycle(selection.plan, selection.billingCycle)}.`,
      );
    } catch {
      setError(BILLING_MESSAGES.planCheckoutFailed);
    }
    setBusyPlan(null);
  };

  return { busyPlan, error, clearError: () => setError(null), buy };
}
