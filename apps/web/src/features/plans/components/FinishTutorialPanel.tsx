// The last step of onboarding, offered once the Create quickstart is done: on the trial, the
// trial is finished first (the Minimum plan starts and is charged, asked and confirmed), then the
// tutorial.
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { IconConfetti } from '@tabler/icons-react';
import { useState } from 'react';
import { StartMinimumDialog } from '../../../components/billing/StartMinimumDialog';
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
  const [asking, setAsking] = useState(false);

  const finish = async () => {
    setAsking(false);
    onError(null);
    setBusy(true);
    try {
      if (plan === 'trial') {
        await finishTrial();
        await refresh();
      }
      await advanceOnboarding('tutorial_complete');
      notifySuccess(
        plan === 'trial'
          ? `Your Minimum plan has started and ${TRIAL_FIRST_CHARGE} was charged to your card. Everything is unlocked.`
          : 'Everything is unlocked. Enjoy writing in your Voice!',
        'Tutorial finished',
      );
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
              ? `Finishing the tutorial also finishes your trial: the Minimum plan starts now and ${TRIAL_FIRST_CHARGE} is charged to your card.`
              : 'Finish the tutorial to close the guides and use OwnVoice freely.'}
          </Text>
        </Stack>
        <Button
          onClick={() => (plan === 'trial' ? setAsking(true) : void finish())}
          loading={busy}
          color="teal"
          leftSection={<IconConfetti size={18} />}
          data-testid="finish-tutorial"
        >
          Finish tutorial
        </Button>
      </Group>
      <StartMinimumDialog
        opened={asking}
        also="This finishes the tutorial."
        onConfirm={() => void finish()}
        onCancel={() => setAsking(false)}
      />
    </Card>
  );
}
