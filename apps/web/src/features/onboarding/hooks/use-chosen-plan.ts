// A plan chosen on the landing page before signing up arrives here as ?plan=<name>: once the
// person is signed in and the plans can be sold, its checkout starts at once (monthly, as the
// landing page showed it), the choice they already made. The parameter is dropped first, so
// coming back from the checkout does not start another.
import { type PaidPlanName, type PlanSelection, paidPlanNameSchema, type User } from '@ownvoice/shared';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { CHOSEN_PLAN_PARAM } from '../../../lib/paths';
import { onboardingPlanButton } from '../pay-now-offer';

export function useChosenPlan(
  user: User | null,
  selling: boolean,
  buy: (selection: PlanSelection) => Promise<void>,
): PaidPlanName | null {
  const [params, setParams] = useSearchParams();
  const parsed = paidPlanNameSchema.safeParse(params.get(CHOSEN_PLAN_PARAM));
  const chosen = parsed.success ? parsed.data : null;
  const started = useRef(false);

  useEffect(() => {
    if (chosen === null || user === null || !selling || started.current) return;
    started.current = true;
    setParams(
      (next) => {
        next.delete(CHOSEN_PLAN_PARAM);
        return next;
      },
      { replace: true },
    );
    const selection: PlanSelection = { plan: chosen, billingCycle: 'monthly' };
    const button = onboardingPlanButton(user, selection);
    // Someone already subscribing changes plan on the plans page, where the change is confirmed.
    if (button.kind === 'buy' && !button.disabled) void buy(selection);
  }, [chosen, user, selling, buy, setParams]);

  return chosen;
}
