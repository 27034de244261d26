// What OwnVoice measures about a Voice, shown for a real Voice on the real model (a Voice of
// Melville's Moby-Dick on SmolLM2-135M-Instruct, written by `npm run demo:real-voice`): its
// evaluation as its owner's page would show it, named with the model, the writer and the
// settings, and one of its held-out samples. No AI-detector results: the product runs no detector
// (docs/decisions/0013-landing-evidence.md).
import { Box, Card, Container, List, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { EvaluationChart } from '../../../components/EvaluationChart';
import { EvaluationSamples } from '../../../components/EvaluationSamples';
import type { EvaluationWording } from '../../../lib/evaluation-figures';
import { formatCount } from '../../../lib/format';
import { useDemoEvidence } from '../hooks/use-demo-evidence';

const VISITOR_WORDING: EvaluationWording = { voice: 'The Voice', writer: "Melville's" };

function RealVoiceReport() {
  const evidence = useDemoEvidence();
  if (evidence.isPending) return <Skeleton height={280} radius="md" />;
  if (evidence.isError) {
    return (
      <Text c="dimmed" data-testid="landing-evidence-error">
        The real Voice’s measurements could not be loaded.
      </Text>
    );
  }
  const { evaluation, trainedOnCharacters, model, writer, settings } = evidence.data;
  return (
    <Stack gap="md">
      <Text fz="sm" c="dimmed" data-testid="landing-evidence-provenance">
        A real Voice on a real model: {model}, trained on {formatCount(trainedOnCharacters)} characters of {writer} with{' '}
        {settings}. Its evaluation, as its owner’s page shows it:
      </Text>
      <EvaluationChart evaluation={evaluation} wording={VISITOR_WORDING} />
      <EvaluationSamples
        samples={evaluation.samples}
        labels={{ voice: 'Rewritten by the Voice', original: 'What Melville wrote' }}
        shown={1}
        stacked
      />
    </Stack>
  );
}

export function LandingEvidence() {
  return (
    <Box bg="gray.0" py={{ base: 48, sm: 72 }} id="evidence" data-testid="landing-evidence">
      <Container>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={{ base: 'lg', md: 48 }}>
          <Stack gap="md">
            <Title order={2}>Measured on real writing</Title>
            <Text>
              Some tools show screenshots of AI detectors. OwnVoice runs no detector and claims nothing about one.
              Instead, when a Voice finishes training, it is tested on passages of its writer’s text that training never
              saw:
            </Text>
            <List spacing="xs">
              <List.Item>
                <Text span fw={600}>
                  Reads as the writer:
                </Text>{' '}
                a classifier trained on the writer’s unseen passages against plain prose by others judges each rewrite
                of plain paragraphs, the Voice’s and the base model’s.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  Perplexity:
                </Text>{' '}
                how surprised the model is by that unseen writing. Lower means it predicts the writer better.
              </List.Item>
              <List.Item>
                <Text span fw={600}>
                  Style similarity:
                </Text>{' '}
                how close rewrites come to the writer’s style, by Burrows’ Delta over the small words (the, of, and,
                but) that give a style away. Higher is closer.
              </List.Item>
            </List>
            <Text c="dimmed">
              Every Voice you train gets this report on its page. Here it is for a Voice of Herman Melville on the small
              real model our tests run, shown as measured, including where a model this small falls short.
            </Text>
          </Stack>
          <Card p={{ base: 'md', sm: 'xl' }}>
            <RealVoiceReport />
          </Card>
        </SimpleGrid>
      </Container>
    </Box>
  );
}
