// The subscription: plan, billing cycle, status, the next renewal (or the end of a cancelled
// plan, or of the trial), a payment that is due, a pending change when it applies, Cancel or
// Reactivate, and the priority support link on plans that include it.
import { Badge, Button, Card, Group, Title } from '@mantine/core';
import { isPaidPlan, TRIAL_CHARGE_STATEMENT, type User } from '@ownvoice/shared';
import { IconCreditCard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PaymentDueAlert } from '../../../components/billing/PaymentDueAlert';
import { ExternalLink } from '../../../components/ExternalLink';
import { usePrioritySupportLink } from '../../../lib/billing/billing-queries';
import { describePendingChange, displayablePendingChange } from '../../../lib/billing/pending-change';
import { CYCLE_LABELS, PLAN_LABELS } from '../../../lib/billing/plan-labels';
import { formatDate, formatDateTime } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { AccountField } from './AccountField';
import { SubscriptionActions } from './SubscriptionActions';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function SubscriptionCard({ user, onError }: { user: User; onError: (message: string | null) => void }) {
  const { status, cancelAtPeriodEnd, currentPeriodEnd } = user.subscription;
  const pending = displayablePendingChange(user);
  const supportLink = usePrioritySupportLink(user.plan.name);
  // A cancelled plan runs to the end of its period; an active one renews then.
  const periodLabel = cancelAtPeriodEnd ? 'Plan ends on' : status === 'active' ? 'Next renewal' : null;
  return (
    <Card data-testid="subscription-card">
      <Group gap="xs" mb="sm" justify="space-between">
        <Group gap="xs">
          <IconCreditCard size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            Subscription
          </Title>
        </Group>
        <Button component={Link} to={PATHS.plans} variant="subtle" size="compact-sm">
          {isPaidPlan(user.plan.name) ? 'Change plan' : 'Choose a plan'}
        </Button>
      </Group>
      <PaymentDueAlert user={user} mb="sm" />
      <AccountField label="Current plan">
        <span data-testid="subscription-plan">{PLAN_LABELS[user.plan.name]}</span>
      </AccountField>
      <AccountField label="Billing cycle">
        {user.plan.billingCycle ? CYCLE_LABELS[user.plan.billingCycle] : '—'}
      </AccountField>
      <AccountField label="Status">
        {status ? (
          <Badge
            color={status === 'active' && !cancelAtPeriodEnd ? 'teal' : 'orange'}
            data-testid="subscription-status"
          >
            {/* The product's status after Cancel is "canceled"; the plan still runs to the date below. */}
            {cancelAtPeriodEnd ? 'Canceled' : capitalise(status)}
          </Badge>
        ) : (
          'No subscription'
        )}
      </AccountField>
      {user.plan.name === 'trial' && user.plan.trialEndsAt && (
        <>
          <AccountField label="Minimum plan starts">{formatDateTime(user.plan.trialEndsAt)}</AccountField>
          <AccountField label="First charge">
            <span data-testid="subscription-first-charge">{TRIAL_CHARGE_STATEMENT}</span>
          </AccountField>
        </>
      )}
      {periodLabel && currentPeriodEnd && (
        <AccountField label={periodLabel}>
          <span data-testid="subscription-period-end">{formatDate(currentPeriodEnd)}</span>
        </AccountField>
      )}
      {pending && (
        <AccountField label="Pending change">
          <span data-testid="subscription-pending-change">{describePendingChange(pending)}</span>
        </AccountField>
      )}
      {supportLink && (
        <AccountField label="Priority support">
          <ExternalLink href={supportLink} data-testid="account-priority-support-link">
            Book your call
          </ExternalLink>
        </AccountField>
      )}
      <SubscriptionActions user={user} onError={onError} />
    </Card>
  );
}
