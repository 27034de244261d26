// A few rewrites from the evaluation: the generic text, what the Voice made of it, and what the
// writer actually wrote.
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { VoiceEvaluation } from '@ownvoice/shared';

const SHOWN_SAMPLES = 3;

const COLUMNS = [
  { key: 'generic', label: 'Generic text' },
  { key: 'voice', label: 'Rewritten by your Voice' },
  { key: 'original', label: 'What you wrote' },
] as const;

export function EvaluationSamples({ samples }: { samples: VoiceEvaluation['samples'] }) {
  if (samples.length === 0) return null;
  return (
    <Stack gap="md" data-testid="evaluation-samples">
      {samples.slice(0, SHOWN_SAMPLES).map((sample, index) => (
        // Samples have no id and never reorder.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list from one answer
        <Stack key={index} gap={6} data-testid="evaluation-sample">
          <Text fz="sm" fw={600}>
            Sample {index + 1}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
            {COLUMNS.map(({ key, label }) => (
              <Paper key={key} withBorder p="sm" bg={key === 'voice' ? 'violet.0' : undefined}>
                <Text fz="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
                  {label}
                </Text>
                <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {sample[key]}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
