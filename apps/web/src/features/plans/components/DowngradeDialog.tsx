// A downgrade waits for the next period: the person confirms it knowing when it takes effect.
import type { PlanSelection, User } from '@ownvoice/shared';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { planWithCycle } from '../../../lib/billing/plan-labels';
import { formatDate } from '../../../lib/format';

export function DowngradeDialog({
  user,
  target,
  onConfirm,
  onCancel,
}: {
  user: User;
  target: PlanSelection | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const periodEnd = user.subscription.currentPeriodEnd;
  const when = periodEnd
    ? `on ${formatDate(periodEnd)}, at the end of your current billing period`
    : 'at the end of your current billing period';
  return (
    <ConfirmDialog
      opened={target !== null}
      title="Downgrade your plan?"
      confirmLabel="Downgrade"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {target &&
        `Your plan changes to ${planWithCycle(target.plan, target.billingCycle)} ${when}. Until then you keep ${planWithCycle(
          user.plan.name,
          user.plan.billingCycle,
        )} and everything it includes.`}
    </ConfirmDialog>
  );
}
