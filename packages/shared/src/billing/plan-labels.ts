// How plans and cycles are named on screen and in the activity log.
import type { BillingCycle, PlanName } from '../constants.js';

export const PLAN_LABELS: Record<PlanName, string> = {
  trial: 'Trial',
  minimum: 'Minimum',
  pro: 'Pro',
  virtuoso: 'Virtuoso',
  none: 'No plan yet',
};

export const CYCLE_LABELS: Record<BillingCycle, string> = { monthly: 'Monthly', annual: 'Annual' };

/** "Pro (annual)", "Minimum". */
export const planWithCycle = (plan: PlanName, cycle: BillingCycle | null): string =>
  cycle ? `${PLAN_LABELS[plan]} (${cycle})` : PLAN_LABELS[plan];
