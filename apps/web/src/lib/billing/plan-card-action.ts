// What a plan card's button says and whether it can be pressed, for the person looking at it.
import { classifyPlanChange, type PlanChangeKind, type PlanSelection, type User } from '@ownvoice/shared';
import { displayablePendingChange } from './pending-change';

export interface PlanCardAction {
  /** `scheduled`: a downgrade to this plan already waits for the next period. */
  kind: PlanChangeKind | 'scheduled';
  label: string;
  disabled: boolean;
}

const LABELS: Record<PlanCardAction['kind'], string> = {
  current: 'Current plan',
  scheduled: 'Scheduled',
  subscribe: 'Subscribe',
  upgrade: 'Upgrade',
  downgrade: 'Downgrade',
};

export function planCardAction(user: Pick<User, 'plan' | 'subscription'>, target: PlanSelection): PlanCardAction {
  const pending = displayablePendingChange(user);
  const kind: PlanCardAction['kind'] =
    pending && pending.plan === target.plan && pending.billingCycle === target.billingCycle
      ? 'scheduled'
      : classifyPlanChange({ plan: user.plan.name, billingCycle: user.plan.billingCycle }, target);
  return { kind, label: LABELS[kind], disabled: kind === 'current' || kind === 'scheduled' };
}
