// Choosing a plan, end to end: ask the server, then either leave for the checkout or report the
// change. Pay-now (onboarding) is a first plan's checkout only: someone the server finds already
// subscribing is refused (409), since a change of plan is confirmed on the plans page first.
import type { PackId, PlanSelection } from '@ownvoice/shared';
import { changePlan, startPackCheckout, startPayNowCheckout } from './billing-api';
import { type CheckoutTrip, goToCheckout } from './go-to-checkout';
import { type PlanChangeOutcome, planChangeOutcome } from './plan-change-outcome';

export async function choosePlan(selection: PlanSelection, trip: CheckoutTrip): Promise<PlanChangeOutcome> {
  const outcome = planChangeOutcome(await changePlan(selection));
  if (outcome.kind === 'checkout') goToCheckout(outcome.url, trip);
  return outcome;
}

/** `payNowPromo`: ask for the pay-now discount (only while the account may have it). */
export async function payNowForPlan(selection: PlanSelection, payNowPromo: boolean, trip: CheckoutTrip): Promise<void> {
  const { url } = await startPayNowCheckout(selection, payNowPromo);
  goToCheckout(url, trip);
}

export async function buyPacks(packs: readonly [PackId, ...PackId[]], trip: CheckoutTrip): Promise<void> {
  const { url } = await startPackCheckout(packs);
  goToCheckout(url, trip);
}
