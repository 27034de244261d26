// The running total against the 20,000 minimum, with the recommended 40,000 as the full bar: the
// one character count of the form. Below the minimum the count is said in the too-few words.
import { Group, Progress, Stack, Text } from '@mantine/core';
import { MIN_TRAINING_CHARS, RECOMMENDED_TRAINING_CHARS, VOICE_MESSAGES } from '@ownvoice/shared';
import { formatCount } from '../../../lib/format';

const MIN_MARK_PERCENT = (MIN_TRAINING_CHARS / RECOMMENDED_TRAINING_CHARS) * 100;

function barColor(total: number): string {
  if (total < MIN_TRAINING_CHARS) return 'orange';
  return total < RECOMMENDED_TRAINING_CHARS ? 'yellow' : 'teal';
}

export function CharacterTotal({ total, counting }: { total: number; counting: boolean }) {
  const percent = Math.min(100, (total / RECOMMENDED_TRAINING_CHARS) * 100);
  return (
    <Stack gap={6} data-testid="create-voice-total" data-total={total}>
      <Group justify="space-between" gap="xs">
        {total < MIN_TRAINING_CHARS ? (
          <Text fw={600} c="orange" data-testid="create-voice-too-few">
            {VOICE_MESSAGES.tooFewChars(total)}
            {counting ? ' (counting…)' : ''}
          </Text>
        ) : (
          <Text fw={600}>
            {formatCount(total)} characters{counting ? ' (counting…)' : ''}
          </Text>
        )}
        <Text fz="sm" c="dimmed">
          Minimum {formatCount(MIN_TRAINING_CHARS)} · recommended {formatCount(RECOMMENDED_TRAINING_CHARS)}
        </Text>
      </Group>
      <div style={{ position: 'relative' }}>
        <Progress
          value={percent}
          color={barColor(total)}
          size="lg"
          aria-label={`${formatCount(total)} of ${formatCount(RECOMMENDED_TRAINING_CHARS)} recommended characters`}
        />
        {/* The minimum, marked on the bar. */}
        <div
          aria-hidden="true"
          style={{
            position: 'absolute',
            top: -3,
            bottom: -3,
            left: `${MIN_MARK_PERCENT}%`,
            width: 2,
            background: 'var(--mantine-color-dark-4)',
          }}
        />
      </div>
      {total < MIN_TRAINING_CHARS ? (
        <Text fz="xs" c="dimmed">
          {VOICE_MESSAGES.charsCountedNote}
        </Text>
      ) : (
        total < RECOMMENDED_TRAINING_CHARS && (
          <Text fz="sm" c="dimmed">
            Enough to train. About {formatCount(RECOMMENDED_TRAINING_CHARS)} characters gives a truer Voice.
          </Text>
        )
      )}
    </Stack>
  );
}
