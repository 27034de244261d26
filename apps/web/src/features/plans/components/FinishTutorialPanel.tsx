// The last step of onboarding, offered once the Create quickstart is done: on the trial, the
// trial is finished first (the Minimum plan starts and is charged, asked and confirmed), then the
// tutorial.
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { IconConfetti } from '@tabler/icons-react';
import { StartMinimumDialog } from '../../../components/billing/StartMinimumDialog';
import type { BillingProblem } from '../../../lib/billing/billing-problem';
import { useFinishTutorial } from '../hooks/use-finish-tutorial';
import type { FinishTutorialPlan } from '../tutorial';

export function FinishTutorialPanel({
  plan,
  onError,
}: {
  plan: Exclude<FinishTutorialPlan, null>;
  onError: (problem: BillingProblem | null) => void;
}) {
  const { busy, asking, press, cancel, confirm } = useFinishTutorial(plan, onError);

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
          onClick={press}
          loading={busy}
          color="teal"
          leftSection={<IconConfetti size={18} />}
          data-testid="finish-tutorial"
        >
          Finish tutorial
        </Button>
      </Group>
      <StartMinimumDialog opened={asking} also="This finishes the tutorial." onConfirm={confirm} onCancel={cancel} />
    </Card>
  );
}
