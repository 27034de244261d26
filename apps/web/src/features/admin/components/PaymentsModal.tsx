// A user's payments, opened from their row: the list (with disputes to rehearse on the offline
// provider), or the refund form for one of them.
import { Loader, Text } from '@mantine/core';
import type { AdminPayment, User } from '@ownvoice/shared';
import { useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useBillingInfo } from '../../../lib/billing/billing-queries';
import { useRehearseDispute } from '../hooks/use-admin-actions';
import { useUserPayments } from '../hooks/use-admin-data';
import { PaymentsTable } from './PaymentsTable';
import { RefundForm } from './RefundForm';

export function PaymentsModal({ user, onClose }: { user: User; onClose: () => void }) {
  const { data, error, isPending } = useUserPayments(user.id);
  const [refunding, setRefunding] = useState<AdminPayment | null>(null);
  // Disputes come from banks; only the offline test provider lets an admin rehearse one.
  const offline = useBillingInfo().data?.provider === 'offline';
  const rehearse = useRehearseDispute(user.id);

  return (
    <Dialog
      opened
      onClose={onClose}
      title={refunding ? `Refund a payment of ${user.username}` : `Payments of ${user.username}`}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      data-testid="payments-modal"
    >
      {refunding ? (
        // Back to the list after a refund too: it shows what is left now.
        <RefundForm user={user} payment={refunding} onDone={() => setRefunding(null)} />
      ) : (
        <>
          {error ? <ErrorAlert message={errorMessage(error, 'Failed to load payments')} /> : null}
          {isPending && <Loader aria-label="Loading payments" />}
          {data && data.length === 0 && (
            <Text c="dimmed" data-testid="payments-empty">
              No payments yet.
            </Text>
          )}
          {data && data.length > 0 && (
            <PaymentsTable
              payments={data}
              onRefund={setRefunding}
              onRehearse={offline ? (payment, step) => rehearse.execute({ paymentId: payment.id, step }) : undefined}
            />
          )}
        </>
      )}
    </Dialog>
  );
}
