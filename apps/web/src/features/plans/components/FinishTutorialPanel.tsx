// The last step of onboarding, offered once the Create quickstart is done: on the trial, the
// trial is finished first (the Minimum plan starts), then the tutorial.
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconConfetti } from '@tabler/icons-react';
import { useState } from 'react';
import { finishTrial } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';
import type { FinishTutorialPlan } from '../tutorial';

export function FinishTutorialPanel({
  plan,
  onError,
}: {
  plan: Exclude<FinishTutorialPlan, null>;
  onError: (problem: BillingProblem | null) => void;
}) {
  const { advanceOnboarding, refresh } = useSession();
  const [busy, setBusy] = useState(false);

  const finish = async () => {
    onError(null);
    setBusy(true);
    try {
      if (plan === 'trial') {
        await finishTrial();
        await refresh();
      }
      await advanceOnboarding('tutorial_complete');
      notifySuccess('Everything is unlocked. Enjoy writing in your Voice!', 'Tutorial finished');
    } catch (error) {
      // Finishing the trial can be refused for its payment (402, with the link to pay): say so.
      onError(billingProblem(error, BILLING_MESSAGES.finishTutorialFailed));
      if (plan === 'trial') await refresh().catch(() => undefined);
      setBusy(false);
    }
  };

  return (
    <Card data-testid="finish-tutorial-panel" bg="teal.0">
      <Group justify="space-between" gap="md">
        <Stack gap={4} style={{ flex: 1, minWidth: 240 }}>
          <Title order={2} fz="lg">
            You have seen it all
          </Title>
          <Text fz="sm" c="dimmed">
            {plan === 'trial'
              ? 'Finishing the tutorial also finishes your trial: the Minimum plan starts now.'
              : 'Finish the tutorial to close the guides and use OwnVoice freely.'}
          </Text>
        </Stack>
        <Button
          onClick={finish}
          loading={busy}
          color="teal"
          leftSection={<IconConfetti size={18} />}
          data-testid="finish-tutorial"
        >
          Finish tutorial
        </Button>
      </Group>
    </Card>
  );
}
