// Choosing a plan, end to end: ask the server, then either leave for the checkout or report the
// change. Pay-now (onboarding) falls back to an ordinary plan change for someone who subscribes
// already.
import type { PackId, PlanSelection } from '@ownvoice/shared';
import { changePlan, startPackCheckout, startPayNowCheckout } from './billing-api';
import { type CheckoutTrip, goToCheckout } from './go-to-checkout';
import { isSubscriptionExists, type PlanChangeOutcome, planChangeOutcome } from './plan-change-outcome';

export async function choosePlan(selection: PlanSelection, trip: CheckoutTrip): Promise<PlanChangeOutcome> {
  const outcome = planChangeOutcome(await changePlan(selection));
  if (outcome.kind === 'checkout') goToCheckout(outcome.url, trip);
  return outcome;
}

export async function payNowForPlan(selection: PlanSelection, trip: CheckoutTrip): Promise<PlanChangeOutcome> {
  try {
    const { url } = await startPayNowCheckout(selection);
    goToCheckout(url, trip);
    return { kind: 'checkout', url };
  } catch (error) {
    if (isSubscriptionExists(error)) return choosePlan(selection, trip);
    throw error;
  }
}

export async function buyPack(pack: PackId, trip: CheckoutTrip): Promise<void> {
  const { url } = await startPackCheckout(pack);
  goToCheckout(url, trip);
}
