// What the upgrade dialog says before anything is charged (decision 20.1): the new plan's full
// price now, a new period from today, and that what the old plan gave stays until it expires.
import {
  addMonthsUtc,
  type BillingCycle,
  formatUsd,
  PLAN_LABELS,
  type PlanName,
  type PlanSelection,
  planPriceCents,
  type User,
} from '@ownvoice/shared';
import { formatDate } from '../../lib/format';

export interface UpgradeCopy {
  title: string;
  body: string;
  confirmLabel: string;
}

/** "Pro monthly", "Minimum annual"; a plan without a cycle is named alone. */
const planAndCycle = (plan: PlanName, cycle: BillingCycle | null): string =>
  cycle ? `${PLAN_LABELS[plan]} ${cycle}` : PLAN_LABELS[plan];

/** One period of the new plan from `now`: when the server's next renewal falls. */
export const renewalAfterUpgrade = (cycle: BillingCycle, now: Date): Date =>
  addMonthsUtc(now, cycle === 'annual' ? 12 : 1);

export function upgradeCopy(user: Pick<User, 'plan'>, target: PlanSelection, now: Date = new Date()): UpgradeCopy {
  // The server charges the catalog price, less the pay-now discount for those who have it for life.
  const price = formatUsd(planPriceCents(target.plan, target.billingCycle, { payNow: user.plan.payNowDiscount }));
  const renews = formatDate(renewalAfterUpgrade(target.billingCycle, now).toISOString());
  const current = planAndCycle(user.plan.name, user.plan.billingCycle);
  return {
    title: `Upgrade to ${planAndCycle(target.plan, target.billingCycle)}?`,
    body: `You are charged ${price} now. Your new plan starts today and renews on ${renews}. What ${current} already gave you stays until it expires.`,
    confirmLabel: `Upgrade and pay ${price}`,
  };
}
