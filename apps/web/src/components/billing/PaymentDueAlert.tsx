// An unpaid invoice, on the account screen and the plans page: the amount, the bank's words, what
// it means for the plan, and the way to pay. It is a standing state of the account, present when
// the page opens, so it is a labelled region rather than an alert that interrupts the reader.
import { Alert, type MantineSpacing, Stack, Text } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { paymentDueView } from '../../lib/billing/payment-due';
import { PayLinkButton } from './PayLinkButton';

export function PaymentDueAlert({ user, mb }: { user: Pick<User, 'subscription'>; mb?: MantineSpacing }) {
  const due = user.subscription.paymentDue;
  if (!due) return null;
  const view = paymentDueView(due);
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={20} />}
      title={view.title}
      role="region"
      // The title in the text colour: orange on its light background is too faint to read.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      mb={mb}
      data-testid="payment-due"
      data-requires-action={due.requiresAction || undefined}
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">
          {view.reason} {view.meaning}
        </Text>
        {view.pay && <PayLinkButton link={view.pay} />}
      </Stack>
    </Alert>
  );
}
