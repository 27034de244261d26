// The card above Convert's text: the Voice, the edit-pass box and Convert, with what the page says
// when no Voice is awake or the list could not be fetched.
import { Button, Card, Checkbox, Group, Stack } from '@mantine/core';
import { CONVERT_MESSAGES, type Voice } from '@ownvoice/shared';
import { IconSparkles } from '@tabler/icons-react';
import { AwakeVoicesNotice } from '../../../components/AwakeVoicesNotice';
import { VoicePicker } from '../../../components/VoicePicker';
import type { useVoiceChoice } from '../../../lib/voice-choice';

export interface ConvertControlsProps {
  awake: readonly Voice[];
  voicesQuery: ReturnType<typeof useVoiceChoice>['query'];
  selectedId: string | null;
  onVoiceChange: (id: string | null) => void;
  editPass: boolean;
  onEditPassChange: (on: boolean) => void;
  submitLabel: string;
  onSubmit: () => void;
}

export function ConvertControls({
  awake,
  voicesQuery,
  selectedId,
  onVoiceChange,
  editPass,
  onEditPassChange,
  submitLabel,
  onSubmit,
}: ConvertControlsProps) {
  const noAwakeVoices = voicesQuery.isSuccess && awake.length === 0;
  return (
    <Card padding="lg">
      <Stack gap="sm">
        <Group align="flex-end" gap="md" wrap="wrap">
          <VoicePicker
            awake={awake}
            loading={voicesQuery.isPending}
            value={selectedId}
            onChange={onVoiceChange}
            style={{ flex: '1 1 220px' }}
            testId="convert-voice-select"
          />
          <Checkbox
            label="Edit pass"
            description="Proofread each chunk against your text"
            checked={editPass}
            onChange={(event) => onEditPassChange(event.currentTarget.checked)}
            data-testid="convert-edit-pass"
          />
          <Button
            onClick={onSubmit}
            disabled={selectedId === null || awake.length === 0}
            leftSection={<IconSparkles size={18} />}
            data-testid="convert-submit"
          >
            {submitLabel}
          </Button>
        </Group>
        <AwakeVoicesNotice
          noAwakeVoices={noAwakeVoices}
          testId="convert-no-voices"
          error={voicesQuery.isError ? voicesQuery.error : null}
          fallbackError={CONVERT_MESSAGES.fetchVoicesFailed}
          onRetry={() => void voicesQuery.refetch()}
        />
      </Stack>
    </Card>
  );
}
