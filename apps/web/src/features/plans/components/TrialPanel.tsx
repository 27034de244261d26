// For someone on the trial: when the Minimum plan starts by itself, and a button to start it now.
import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MINIMUM_MONTH, TRIAL_CHARGE_STATEMENT } from '@ownvoice/shared';
import { IconHourglass } from '@tabler/icons-react';
import { StartMinimumDialog } from '../../../components/billing/StartMinimumDialog';
import type { BillingProblem } from '../../../lib/billing/billing-problem';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useFinishTrial } from '../hooks/use-finish-trial';

export function TrialPanel({ onError }: { onError: (problem: BillingProblem | null) => void }) {
  const user = useCurrentUser();
  const { busy, asking, ask, cancel, confirm } = useFinishTrial(onError);
  const endsAt = user.plan.trialEndsAt;

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
        <Button onClick={ask} loading={busy} data-testid="finish-trial">
          Finish trial now
        </Button>
      </Group>
      <StartMinimumDialog opened={asking} onConfirm={confirm} onCancel={cancel} />
    </Card>
  );
}
