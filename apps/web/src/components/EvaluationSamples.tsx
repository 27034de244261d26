// A few rewrites from the evaluation: the generic text, what the Voice made of it, and what the
// writer actually wrote. The Voice details page shows its owner three; the landing page shows a
// visitor one of a real Voice's.
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { VoiceEvaluation } from '@ownvoice/shared';

/** The columns' headings: for the owner by default. */
export interface SampleLabels {
  voice: string;
  original: string;
}

const OWNER_LABELS: SampleLabels = { voice: 'Rewritten by your Voice', original: 'What you wrote' };

export function EvaluationSamples({
  samples,
  labels = OWNER_LABELS,
  shown = 3,
  stacked = false,
}: {
  samples: VoiceEvaluation['samples'];
  labels?: SampleLabels;
  shown?: number;
  /** One column under another at every width, for a narrow card. */
  stacked?: boolean;
}) {
  if (samples.length === 0) return null;
  const columns = [
    { key: 'generic', label: 'Generic text' },
    { key: 'voice', label: labels.voice },
    { key: 'original', label: labels.original },
  ] as const;
  return (
    <Stack gap="md" data-testid="evaluation-samples">
      {samples.slice(0, shown).map((sample, index) => (
        // Samples have no id and never reorder.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list from one answer
        <Stack key={index} gap={6} data-testid="evaluation-sample">
          <Text fz="sm" fw={600}>
            {shown > 1 ? `Sample ${index + 1}` : 'Sample'}
          </Text>
          <SimpleGrid cols={stacked ? 1 : { base: 1, md: 3 }} spacing="sm">
            {columns.map(({ key, label }) => (
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
