// How a plan's price reads on a card: one payment of the cycle, the monthly equivalent of an
// annual payment, and the list price struck through when the pay-now discount applies.
import { type BillingCycle, formatUsd, type PaidPlanName, planPriceCents } from '@ownvoice/shared';

export interface PlanPriceView {
  /** One payment: "$8.99" a month, or "$86.30" a year. */
  price: string;
  period: 'mo' | 'yr';
  /** Annual only: what the year comes to a month, rounded down ("$7.19"). */
  perMonth: string | null;
  /** The price without the pay-now discount, shown struck through; null when there is none. */
  listPrice: string | null;
}

export function planPriceView(plan: PaidPlanName, cycle: BillingCycle, { payNow }: { payNow: boolean }): PlanPriceView {
  const cents = planPriceCents(plan, cycle, { payNow });
  const annual = cycle === 'annual';
  return {
    price: formatUsd(cents),
    period: annual ? 'yr' : 'mo',
    perMonth: annual ? formatUsd((cents - (cents % 12)) / 12) : null,
    listPrice: payNow ? formatUsd(planPriceCents(plan, cycle, { payNow: false })) : null,
  };
}
