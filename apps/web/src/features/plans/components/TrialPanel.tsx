// For someone on the trial: when the Minimum plan starts by itself, and a button to start it now.
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MINIMUM_MONTH, TRIAL_CHARGE_STATEMENT, TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { IconHourglass } from '@tabler/icons-react';
import { useState } from 'react';
import { StartMinimumDialog } from '../../../components/billing/StartMinimumDialog';
import { finishTrial } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';

export function TrialPanel({ onError }: { onError: (problem: BillingProblem | null) => void }) {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const endsAt = user.plan.trialEndsAt;

  const finish = async () => {
    setAsking(false);
    onError(null);
    setBusy(true);
    try {
      await finishTrial();
      await refresh();
      notifySuccess(
        `Your Minimum plan has started and ${TRIAL_FIRST_CHARGE} was charged to your card.`,
        'Trial finished',
      );
    } catch (error) {
      // A declined or unconfirmed first payment (402) says so with the link to pay; the account,
      // read again, shows it as the payment due.
      onError(billingProblem(error, BILLING_MESSAGES.finishTrialFailed));
      await refresh().catch(() => undefined);
    }
    setBusy(false);
  };

  return (
    <Card data-testid="trial-panel" bg="violet.0">
      <Group justify="space-between" gap="md" align="center">
        <Group gap="md" wrap="nowrap" align="flex-start" style={{ flex: 1, minWidth: 260 }}>
          <ThemeIcon size={44} radius="md" variant="light">
            <IconHourglass size={24} />
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} fz="lg">
              You are on the trial
            </Title>
            <Text fz="sm" c="dimmed">
              The Minimum plan ({MINIMUM_MONTH} a month) starts by itself
              {endsAt ? ` on ${formatDateTime(endsAt)}` : ' about a day after your trial began'}, with its own usage.
              Finish the trial now to start it at once, or choose another plan below. {TRIAL_CHARGE_STATEMENT}
            </Text>
          </Stack>
        </Group>
        <Button onClick={() => setAsking(true)} loading={busy} data-testid="finish-trial">
          Finish trial now
        </Button>
      </Group>
      <StartMinimumDialog opened={asking} onConfirm={() => void finish()} onCancel={() => setAsking(false)} />
    </Card>
  );
}
