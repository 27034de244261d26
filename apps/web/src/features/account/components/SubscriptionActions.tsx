// Cancel Subscription (confirmed first; the plan runs to the end of its period) or Reactivate
// Subscription while a cancellation waits. A refused reactivation (400: nothing left to reactivate)
// sends the person to the plans page to subscribe afresh.
import { Button, Group } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { isApiError } from '../../../lib/api-error';
import { cancelSubscription, reactivateSubscription } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { formatDate } from '../../../lib/format';
import { PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifySuccess } from '../../../lib/toast';

export function SubscriptionActions({ user, onError }: { user: User; onError: (message: string | null) => void }) {
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { status, cancelAtPeriodEnd, currentPeriodEnd } = user.subscription;

  const cancel = async () => {
    setConfirming(false);
    onError(null);
    setBusy(true);
    try {
      await cancelSubscription();
      await refresh();
      notifySuccess('Your subscription will not renew.', 'Subscription cancelled');
    } catch {
      onError(BILLING_MESSAGES.cancelFailed);
    }
    setBusy(false);
  };

  const reactivate = async () => {
    onError(null);
    setBusy(true);
    try {
      await reactivateSubscription();
      await refresh();
      notifySuccess('Your subscription renews again.', 'Subscription reactivated');
      setBusy(false);
    } catch (error) {
      setBusy(false);
      if (isApiError(error) && error.status === 400) {
        notifyError(BILLING_MESSAGES.reactivateFailed);
        navigate(PATHS.plans);
        return;
      }
      onError(BILLING_MESSAGES.reactivateFailed);
    }
  };

  if (cancelAtPeriodEnd) {
    return (
      <Group mt="md">
        <Button onClick={reactivate} loading={busy} data-testid="reactivate-subscription">
          Reactivate Subscription
        </Button>
      </Group>
    );
  }
  if (status !== 'active') return null;
  return (
    <Group mt="md">
      <Button
        color="red"
        variant="light"
        onClick={() => setConfirming(true)}
        loading={busy}
        data-testid="cancel-subscription"
      >
        Cancel Subscription
      </Button>
      <ConfirmDialog
        opened={confirming}
        title="Cancel your subscription?"
        confirmLabel="Cancel Subscription"
        danger
        onConfirm={cancel}
        onCancel={() => setConfirming(false)}
      >
        {`Your plan stays until ${
          currentPeriodEnd ? formatDate(currentPeriodEnd) : 'the end of this billing period'
        } and does not renew after that. The usage you have keeps until it expires. You can reactivate before then.`}
      </ConfirmDialog>
    </Group>
  );
}
