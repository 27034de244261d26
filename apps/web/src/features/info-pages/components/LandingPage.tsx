// The landing page: the pitch, a demo video of the real product, the story and a before/after
// sample, how it works, what the product measures, the plans and packs, the FAQ, the offline app,
// and the way in (or back to the dashboard when signed in).
import { Badge, Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDownload, IconPencil, IconRefresh, IconSchool } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';
import { TRAINING_TIME_STATEMENT } from '../../../lib/training-time';
import { useRotatingItem } from '../hooks/use-rotating-item';
import { ClosingActions, HeroActions } from './LandingActions';
import { LandingDemoVideo } from './LandingDemoVideo';
import { LandingEvidence } from './LandingEvidence';
import { LandingFaq } from './LandingFaq';
import { LandingPlans } from './LandingPlans';
import { LandingStory } from './LandingStory';

const CONTENT_TYPES = ['blog posts', 'social content', 'emails', 'ad copy', 'speeches'] as const;
const HEADLINE_ROTATION_MS = 2400;

const STEPS: { icon: ReactNode; title: string; text: string }[] = [
  {
    icon: <IconSchool size={22} />,
    title: 'Train your Voice',
    text: 'Paste or upload your own writing. OwnVoice trains a private model on it and shows you the time left.',
  },
  {
    icon: <IconRefresh size={22} />,
    title: 'Convert',
    text: 'Paste generic AI text and get it back rewritten in your style, with an optional proofreading pass.',
  },
  {
    icon: <IconPencil size={22} />,
    title: 'Create',
    text: 'Describe what you need. OwnVoice drafts it and rewrites the draft in your Voice.',
  },
];

export function LandingPage() {
  useDocumentTitle(undefined);
  const contentType = useRotatingItem(CONTENT_TYPES, HEADLINE_ROTATION_MS);

  return (
    <>
      <Box
        pt={{ base: 56, sm: 96 }}
        pb={{ base: 40, sm: 64 }}
        style={{
          background:
            'radial-gradient(1200px 400px at 50% -10%, var(--mantine-color-violet-1), transparent 70%), var(--mantine-color-body)',
        }}
      >
        <Container size="md">
          <Stack align="center" ta="center" gap="lg">
            <Badge size="lg" variant="light">
              Early beta · limited spots
            </Badge>
            <Title order={1} fz={{ base: 34, sm: 54 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
              Your{' '}
              <Text
                span
                inherit
                variant="gradient"
                gradient={{ from: 'violet.7', to: 'indigo.6', deg: 90 }}
                aria-live="polite"
              >
                {contentType}
              </Text>
              , written in your own voice.
            </Title>
            <Text fz={{ base: 'lg', sm: 'xl' }} c="dimmed" maw={640}>
              AI drafts sound like everyone else. OwnVoice learns how you write, then rewrites generic text or creates
              new content that sounds like you wrote it.
            </Text>
            <HeroActions />
          </Stack>
        </Container>
      </Box>

      <LandingDemoVideo />

      <LandingStory />

      <Container pb={{ base: 48, sm: 72 }}>
        <Title order={2} ta="center" mb={{ base: 'md', sm: 'xl' }}>
          Same message, two voices
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Card>
            <Badge color="gray" mb="sm">
              Generic AI
            </Badge>
            <Text c="dimmed" fs="italic">
              “In today's fast-paced digital landscape, leveraging innovative solutions is essential to unlocking your
              business's full potential and driving meaningful engagement.”
            </Text>
          </Card>
          <Card style={{ borderColor: 'var(--mantine-color-violet-3)' }}>
            <Badge mb="sm">In your Voice</Badge>
            <Text>
              “Look, most of my customers don't care about ‘solutions’. They want the thing to work on a Monday morning.
              So that's what we build, and that's what I'll talk about.”
            </Text>
          </Card>
        </SimpleGrid>
        <Text fz="sm" c="dimmed" ta="center" mt="md">
          An illustration written for this page. The video above and the measurements below are the real product.
        </Text>
      </Container>

      <Box bg="gray.0" py={{ base: 48, sm: 72 }}>
        <Container>
          <Stack gap="xl">
            <Title order={2} ta="center">
              How it works
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
              {STEPS.map((step, index) => (
                <Card key={step.title}>
                  <Group gap="sm" mb="sm">
                    <ThemeIcon size={40} radius="md" variant="light">
                      {step.icon}
                    </ThemeIcon>
                    <Text c="dimmed" fw={700} fz="sm">
                      Step {index + 1}
                    </Text>
                  </Group>
                  <Title order={3} mb={6}>
                    {step.title}
                  </Title>
                  <Text c="dimmed">{step.text}</Text>
                </Card>
              ))}
            </SimpleGrid>
          </Stack>
        </Container>
      </Box>

      <LandingEvidence />

      <LandingPlans />

      <LandingFaq />

      <Container py={{ base: 48, sm: 72 }}>
        <Card
          p={{ base: 'lg', sm: 40 }}
          style={{
            background: 'linear-gradient(135deg, var(--mantine-color-violet-0), var(--mantine-color-indigo-0))',
          }}
        >
          <Group justify="space-between" gap="lg">
            <Box maw={560}>
              <Title order={2} mb="xs">
                Prefer to stay offline?
              </Title>
              <Text c="dimmed">
                A free, open-source desktop app runs on your own computer's CPU. Nothing leaves your machine.
              </Text>
            </Box>
            <Button component={Link} to={PATHS.download} variant="white" leftSection={<IconDownload size={18} />}>
              Get the offline app
            </Button>
          </Group>
        </Card>
      </Container>

      <Container size="sm" pb={{ base: 56, sm: 96 }} data-testid="landing-closing">
        <Stack align="center" ta="center" gap="md">
          <Title order={2}>Sound like yourself again</Title>
          <Text c="dimmed">Bring the writing you already have. {TRAINING_TIME_STATEMENT}</Text>
          <ClosingActions />
        </Stack>
      </Container>
    </>
  );
}
