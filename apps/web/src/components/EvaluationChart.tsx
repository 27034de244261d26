// The evaluation at a glance (shared voiceEvaluationSchema): two bars per measure, the Voice
// against where it starts (the base model; the plain text a rewrite starts from), and one bar for
// the content its rewrites keep, with which direction is better said in words. The Voice details page shows
// the owner theirs; the landing page shows a visitor the demo Voice's.
import { Box, Group, Progress, Stack, Text } from '@mantine/core';
import type { VoiceEvaluation } from '@ownvoice/shared';
import {
  type EvaluationWording,
  evaluationFigures,
  evaluationSummary,
  formatPerplexity,
  OWNER_WORDING,
} from '../lib/evaluation-figures';

interface BarRow {
  label: string;
  /** Bar length, 0..100. */
  percent: number;
  display: string;
  color: string;
}

function MetricBars({ title, hint, rows, testId }: { title: string; hint: string; rows: BarRow[]; testId: string }) {
  return (
    <Stack gap={8} data-testid={testId}>
      <Group gap="xs" align="baseline">
        <Text fw={600} fz="sm">
          {title}
        </Text>
        <Text fz="xs" c="dimmed">
          {hint}
        </Text>
      </Group>
      {rows.map((row) => (
        <Group key={row.label} gap="sm" wrap="nowrap">
          <Text fz="sm" w={84} style={{ flexShrink: 0 }}>
            {row.label}
          </Text>
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Progress value={row.percent} color={row.color} size="xl" aria-label={`${row.label}: ${row.display}`} />
          </Box>
          <Text fz="sm" fw={600} w={68} ta="right" style={{ flexShrink: 0 }}>
            {row.display}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

export function EvaluationChart({
  evaluation,
  wording = OWNER_WORDING,
}: {
  evaluation: VoiceEvaluation;
  wording?: EvaluationWording;
}) {
  const figures = evaluationFigures(evaluation);
  const { perplexity, similarity, content, readsAs } = figures;
  return (
    <Stack gap="lg" data-testid="evaluation-chart">
      <Stack gap={4}>
        {evaluationSummary(figures, wording).map((line) => (
          <Text key={line} fz="sm">
            {line}
          </Text>
        ))}
      </Stack>
      {readsAs && (
        <MetricBars
          title={`Rewrites that read as ${wording.writer} writing`}
          hint="higher is better"
          testId="evaluation-reads-as"
          rows={[
            {
              label: 'Base model',
              percent: (readsAs.base / readsAs.rewrites) * 100,
              display: `${readsAs.base} of ${readsAs.rewrites}`,
              color: 'gray.5',
            },
            {
              label: wording.voice,
              percent: (readsAs.voice / readsAs.rewrites) * 100,
              display: `${readsAs.voice} of ${readsAs.rewrites}`,
              color: 'grape',
            },
          ]}
        />
      )}
      <MetricBars
        title="Surprise on writing it never saw (perplexity)"
        hint="lower is better"
        testId="evaluation-perplexity"
        rows={[
          {
            label: 'Base model',
            percent: (perplexity.base / perplexity.scaleMax) * 100,
            display: formatPerplexity(perplexity.base),
            color: 'gray.5',
          },
          {
            label: wording.voice,
            percent: (perplexity.voice / perplexity.scaleMax) * 100,
            display: formatPerplexity(perplexity.voice),
            color: 'violet',
          },
        ]}
      />
      <MetricBars
        title={`Style similarity of rewrites to ${wording.writer} writing`}
        hint="higher is better"
        testId="evaluation-similarity"
        rows={[
          {
            label: 'Plain text',
            percent: similarity.basePercent,
            display: `${similarity.basePercent}%`,
            color: 'gray.5',
          },
          {
            label: wording.voice,
            percent: similarity.voicePercent,
            display: `${similarity.voicePercent}%`,
            color: 'teal',
          },
        ]}
      />
      {content && (
        <MetricBars
          title="Content kept: the plain text's content words in the rewrites"
          hint="higher is better"
          testId="evaluation-content"
          rows={[
            {
              label: wording.voice,
              percent: content.keptPercent,
              display: `${content.keptPercent}%`,
              color: 'blue',
            },
          ]}
        />
      )}
      <Text fz="xs" c="dimmed">
        Measured on {evaluation.heldOut.examples.toLocaleString('en-US')} passages of {wording.writer} writing held back
        from training, and {evaluation.style.samples.toLocaleString('en-US')} rewrites of short plain paragraphs on
        everyday subjects, written in nobody’s style in particular, compared with {wording.writer} own text. Style
        similarity compares how often the rewrites use common words like “the”, “of” and “which” with how often{' '}
        {wording.writer} writing does (Burrows’ Delta); content kept counts the other words of each plain text that its
        rewrite still has.
        {readsAs && (
          <>
            {' '}
            Whether a rewrite reads as {wording.writer} writing is decided by a classifier of letter sequences and
            common words, trained on {wording.writer} held-back passages against plain prose by other people; it told
            them apart {readsAs.accuracyPercent}% of the time when tested on passages it had not learnt from.
          </>
        )}
      </Text>
    </Stack>
  );
}
