// The subscription: plan, billing cycle, status and a pending change when it applies.
// Cancelling and reactivating arrive with billing.
import { Badge, Card, Group, Text, Title } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { IconCreditCard } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format';
import { AccountField } from './AccountField';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function planLabel(user: User): string {
  return user.plan.name === 'none' ? 'No plan yet' : capitalise(user.plan.name);
}

/** A pending change shows only when it names a plan and belongs to the current subscription. */
export function displayablePendingChange(user: User): NonNullable<User['subscription']['pendingChange']> | null {
  const change = user.subscription.pendingChange;
  if (!change?.plan) return null;
  const forId = change.applyForSubscriptionId;
  return !forId || forId === user.subscription.stripeSubscriptionId ? change : null;
}

export function SubscriptionCard({ user }: { user: User }) {
  const { status, cancelAtPeriodEnd } = user.subscription;
  const pending = displayablePendingChange(user);
  return (
    <Card data-testid="subscription-card">
      <Group gap="xs" mb="sm">
        <IconCreditCard size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          Subscription
        </Title>
      </Group>
      <AccountField label="Current plan">{planLabel(user)}</AccountField>
      <AccountField label="Billing cycle">
        {user.plan.billingCycle ? capitalise(user.plan.billingCycle) : '—'}
      </AccountField>
      <AccountField label="Status">
        {status ? (
          <Badge color={status === 'active' && !cancelAtPeriodEnd ? 'teal' : 'orange'}>
            {cancelAtPeriodEnd ? 'Ends at period end' : capitalise(status)}
          </Badge>
        ) : (
          'No subscription'
        )}
      </AccountField>
      {pending && (
        <AccountField label="Pending change">
          {`${capitalise(pending.plan ?? '')}${pending.billingCycle ? ` (${pending.billingCycle})` : ''}${
            pending.effectiveAt ? ` from ${formatDate(pending.effectiveAt)}` : ''
          }`}
        </AccountField>
      )}
      <Text fz="xs" c="dimmed" mt="sm">
        Changing or cancelling your subscription arrives with billing.
      </Text>
    </Card>
  );
}
