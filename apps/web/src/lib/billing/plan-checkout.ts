// Choosing a plan, end to end: ask the server, then either leave for the checkout or report the
// change. Pay-now (onboarding) is a first plan's checkout only: someone the server finds already
// subscribing is refused (409), since a change of plan is confirmed on the plans page first. Each
// checkout remembers what it buys, at the price the server charges it (checkout-purchase.ts).
import type { PackId, PlanSelection } from '@ownvoice/shared';
import { changePlan, startPackCheckout, startPayNowCheckout } from './billing-api';
import type { Purchase } from './checkout-purchase';
import { type CheckoutTrip, goToCheckout } from './go-to-checkout';
import { type PlanChangeOutcome, planChangeOutcome } from './plan-change-outcome';

/** A plan at its checkout's price: the pay-now discount is the account's for life once it has it. */
const planPurchase = (selection: PlanSelection, trip: CheckoutTrip, payNowPromo = false): Purchase => ({
  kind: 'plan',
  ...selection,
  payNow: payNowPromo || (trip.user?.plan.payNowDiscount ?? false),
});

export async function choosePlan(selection: PlanSelection, trip: CheckoutTrip): Promise<PlanChangeOutcome> {
  const response = await changePlan(selection);
  const outcome = planChangeOutcome(response);
  if (outcome.kind === 'checkout') {
    goToCheckout(outcome.url, {
      ...trip,
      purchase: { checkoutId: response.id, purchase: planPurchase(selection, trip) },
    });
  }
  return outcome;
}

/** `payNowPromo`: ask for the pay-now discount (only while the account may have it). */
export async function payNowForPlan(selection: PlanSelection, payNowPromo: boolean, trip: CheckoutTrip): Promise<void> {
  const { url, id } = await startPayNowCheckout(selection, payNowPromo);
  goToCheckout(url, { ...trip, purchase: { checkoutId: id, purchase: planPurchase(selection, trip, payNowPromo) } });
}

export async function buyPacks(packs: readonly [PackId, ...PackId[]], trip: CheckoutTrip): Promise<void> {
  const { url, id } = await startPackCheckout(packs);
  goToCheckout(url, { ...trip, purchase: { checkoutId: id, purchase: { kind: 'packs', packs: [...packs] } } });
}
