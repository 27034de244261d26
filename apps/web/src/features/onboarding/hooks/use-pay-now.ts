// Pay now at onboarding: a first plan's checkout, with the discount only while the account may
// have it. A refusal the person can act on (a subscription already running, the provider out of
// reach) is said in the server's words, and the account is read again so the cards show what is
// true now (list prices, or the plans page for a change of plan).
import type { PaidPlanName, PlanSelection, User } from '@ownvoice/shared';
import { useState } from 'react';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { payNowForPlan } from '../../../lib/billing/plan-checkout';
import { useSession } from '../../../lib/session/session-context';

export function usePayNow(user: User | null, payNowPromo: boolean) {
  const { refresh } = useSession();
  const [busyPlan, setBusyPlan] = useState<PaidPlanName | null>(null);
  const [error, setError] = useState<BillingProblem | null>(null);

  const buy = async (selection: PlanSelection) => {
    setError(null);
    setBusyPlan(selection.plan);
    try {
      // On the way to the checkout: the button stays busy until the tab leaves.
      await payNowForPlan(selection, payNowPromo, { user, returnTo: null });
    } catch (cause) {
      setError(billingProblem(cause, BILLING_MESSAGES.planCheckoutFailed));
      setBusyPlan(null);
      if (user) await refresh().catch(() => undefined);
    }
  };

  return { busyPlan, error, clearError: () => setError(null), buy };
}
