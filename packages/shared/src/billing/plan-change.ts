// Moving between plans. Tier decides first: a higher tier is an upgrade and a lower one a
// downgrade, whatever happens to the cycle. On the same plan, monthly → annual is an upgrade and
// annual → monthly a downgrade. Upgrades are charged at once; downgrades wait for the next period.
import type { BillingCycle, PlanName } from '../constants.js';
import { isPaidPlanName, type PaidPlanName, PLANS } from './catalog.js';

export interface PlanSelection {
  plan: PaidPlanName;
  billingCycle: BillingCycle;
}

/**
 * - `current`: the plan and cycle the person has (its card is disabled);
 * - `subscribe`: no paid plan yet (trial or none), so this is a first checkout, not a change;
 * - `upgrade` / `downgrade`: a change to the existing subscription.
 */
export type PlanChangeKind = 'current' | 'subscribe' | 'upgrade' | 'downgrade';

export const planTier = (plan: PaidPlanName): number => PLANS[plan].tier;

/** When a change takes effect: an upgrade is charged now, a downgrade is scheduled. */
export const PLAN_CHANGE_EFFECT = { upgrade: 'now', downgrade: 'next_period' } as const;
export type PlanChangeEffect = (typeof PLAN_CHANGE_EFFECT)[keyof typeof PLAN_CHANGE_EFFECT];

const CYCLE_RANK: Record<BillingCycle, number> = { monthly: 0, annual: 1 };

/** What choosing `target` means for someone on `current` (a paid plan without a cycle counts as monthly). */
export function classifyPlanChange(
  current: { plan: PlanName; billingCycle: BillingCycle | null },
  target: PlanSelection,
): PlanChangeKind {
  if (!isPaidPlanName(current.plan)) return 'subscribe';
  const tierDelta = planTier(target.plan) - planTier(current.plan);
  if (tierDelta !== 0) return tierDelta > 0 ? 'upgrade' : 'downgrade';
  const cycleDelta = CYCLE_RANK[target.billingCycle] - CYCLE_RANK[current.billingCycle ?? 'monthly'];
  if (cycleDelta === 0) return 'current';
  return cycleDelta > 0 ? 'upgrade' : 'downgrade';
}

/**
 * The pay-now discount (15% for life) belongs to the choice at sign-up: a first plan, bought before
 * any trial or plan, so it is offered and charged only then (decision 12.4).
 */
export function payNowDiscountAvailable(account: {
  planName: PlanName;
  /** A plan was ever paid for. */
  hadPlan: boolean;
  /** A subscription exists or existed (an unpaid one after the trial included). */
  hasSubscription: boolean;
}): boolean {
  return account.planName === 'none' && !account.hadPlan && !account.hasSubscription;
}
