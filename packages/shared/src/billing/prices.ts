// Money rules, in integer cents with integer arithmetic only: a percentage is a multiplication
// and an integer division, never a floating-point factor, so every price is exact and the same
// on the server, in the browser and at the payment provider.
import type { BillingCycle } from '../constants.js';
import { ANNUAL_DISCOUNT_PERCENT, PAY_NOW_DISCOUNT_PERCENT, type PaidPlanName, PLANS } from './catalog.js';

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new RangeError(`A price must be a whole, non-negative number of cents, not ${cents}.`);
  }
}

/** `cents` less `percent`%, rounded down to a whole cent: the buyer never pays a fraction more. */
function lessPercent(cents: number, percent: number): number {
  assertCents(cents);
  const scaled = cents * (100 - percent);
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`A price of ${cents} cents is too large.`);
  return (scaled - (scaled % 100)) / 100;
}

/** Twelve monthly payments less 20%, rounded down, so the year is never less than 20% cheaper. */
export const annualPriceCents = (monthlyCents: number): number =>
  lessPercent(monthlyCents * 12, ANNUAL_DISCOUNT_PERCENT);

/** The pay-now price: price × 0.85 rounded down to cents, applied to each payment of either cycle. */
export const payNowPriceCents = (cents: number): number => lessPercent(cents, PAY_NOW_DISCOUNT_PERCENT);

export interface PlanPriceOptions {
  /** Chose to pay now at onboarding: the discount holds for every payment, renewals included. */
  payNow: boolean;
}

/** What one payment of a plan costs: a month, or a whole year up front. */
export function planPriceCents(plan: PaidPlanName, cycle: BillingCycle, { payNow }: PlanPriceOptions): number {
  const monthly = PLANS[plan].monthlyCents;
  const price = cycle === 'monthly' ? monthly : annualPriceCents(monthly);
  return payNow ? payNowPriceCents(price) : price;
}

/** "$8.99", "$2,879.90": US dollars from cents, without floating point. */
export function formatUsd(cents: number): string {
  assertCents(cents);
  const dollars = String((cents - (cents % 100)) / 100).replace(/\B(?=(\d{3})+$)/g, ',');
  return `$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}
