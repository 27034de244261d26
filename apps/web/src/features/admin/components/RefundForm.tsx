// Refunding one payment: an amount in dollars (empty: all that is left), whether to end the
// person's subscription now, and a button that says the sum; sent with a fresh second-factor code.
// What the payment granted is taken back in the same share (decision 20.1).
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { type AdminPayment, formatUsd, type User } from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useRefundPayment } from '../hooks/use-admin-actions';
import { leftToRefund, paymentRow, type RefundFormValues, refundRequest } from '../payments';

export function RefundForm({ user, payment, onDone }: { user: User; payment: AdminPayment; onDone: () => void }) {
  const [values, setValues] = useState<RefundFormValues>({ amount: '', endSubscription: false });
  const [formError, setFormError] = useState<string | null>(null);
  const refund = useRefundPayment(user.id, payment.id, onDone);
  const row = paymentRow(payment);
  const left = formatUsd(leftToRefund(payment));
  const request = refundRequest(values, payment);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    refund.clearError();
    if (!request.ok) {
      setFormError(request.message);
      return;
    }
    setFormError(null);
    refund.execute(request.body);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Refund a payment" data-testid="refund-form">
      <Stack gap="md">
        <Text fz="sm">
          {row.what}, paid {row.date}: {row.amount}, of which {left} is left to refund. What it granted is taken back in
          the same share, out of what {user.username} has not used.
        </Text>
        <TextInput
          label="Amount in dollars"
          name="amount"
          description={`Leave empty to refund all that is left (${left}).`}
          placeholder={left.slice(1)}
          inputMode="decimal"
          autoComplete="off"
          leftSection="$"
          value={values.amount}
          onChange={(event) => {
            const amount = event.currentTarget.value;
            setValues((current) => ({ ...current, amount }));
            setFormError(null);
          }}
          data-autofocus
        />
        <Checkbox
          label="Also end their subscription now"
          description="Without this, the plan runs to the end of its period."
          checked={values.endSubscription}
          onChange={(event) => {
            const endSubscription = event.currentTarget.checked;
            setValues((current) => ({ ...current, endSubscription }));
          }}
        />
        <ErrorAlert message={formError ?? refund.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone} disabled={refund.pending}>
            Back
          </Button>
          <Button type="submit" color="red.9" loading={refund.pending}>
            {request.ok ? `Refund ${formatUsd(request.cents)}` : 'Refund'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
