// A failed billing call, in the page's red box: the server's words when they say what to do, and
// the button to pay or confirm when the provider gave a page for it.
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { BillingProblem } from '../../lib/billing/billing-problem';
import { PayLinkButton } from './PayLinkButton';

export function BillingProblemAlert({ problem, onClose }: { problem: BillingProblem | null; onClose?: () => void }) {
  if (!problem) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={20} />}
      role="alert"
      data-testid="form-error"
      withCloseButton={onClose !== undefined}
      onClose={onClose}
      closeButtonLabel="Dismiss"
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{problem.message}</Text>
        {problem.pay && <PayLinkButton link={problem.pay} />}
      </Stack>
    </Alert>
  );
}
