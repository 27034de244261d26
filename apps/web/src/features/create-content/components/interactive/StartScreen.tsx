// Nothing started yet: what the chosen length means, and Start.
import { Button, Stack, Text } from '@mantine/core';
import type { InteractiveAction, InteractiveMode } from '@ownvoice/shared';
import { IconPlayerPlay } from '@tabler/icons-react';

export interface StartScreenProps {
  length: InteractiveMode;
  pending: InteractiveAction | null;
  onStart: () => void;
}

export function StartScreen({ length, pending, onStart }: StartScreenProps) {
  return (
    <Stack gap="xs">
      <Text fz="sm">
        {length === 'short'
          ? 'Short: a few questions, then one piece drafted and rewritten in your Voice.'
          : 'Long: a few questions, an outline you can edit, then each section drafted and rewritten in your Voice.'}
      </Text>
      <Button
        leftSection={<IconPlayerPlay size={18} />}
        onClick={onStart}
        loading={pending === 'ask_questions'}
        disabled={pending !== null}
        style={{ alignSelf: 'flex-start' }}
        data-testid="interactive-start"
      >
        Start
      </Button>
    </Stack>
  );
}
