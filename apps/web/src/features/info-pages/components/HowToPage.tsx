import { Anchor, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconBolt, IconPencil, IconRefresh, IconSchool, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';
import { TRAINING_TIME_STATEMENT } from '../../../lib/training-time';

const STEPS = [
  {
    icon: <IconUserPlus size={14} />,
    title: 'Create your account',
    text: 'Sign up, then pick how you want to pay: later, after a trial, or now with 15% off for life.',
  },
  {
    icon: <IconSchool size={14} />,
    title: 'Train a Voice',
    text: `Paste or upload at least 20,000 characters of your own writing (about 40,000 works best). ${TRAINING_TIME_STATEMENT}`,
  },
  {
    icon: <IconBolt size={14} />,
    title: 'Wake it up',
    text: 'A trained Voice sleeps until you need it. Waking it usually takes a minute or two.',
  },
  {
    icon: <IconRefresh size={14} />,
    title: 'Convert',
    text: 'Paste generic text and watch it come back in your style, chunk by chunk. Turn on the edit pass to have each chunk proofread against the original.',
  },
  {
    icon: <IconPencil size={14} />,
    title: 'Create',
    text: 'Describe what you need. Quick mode writes straight away; Interactive mode asks you questions first.',
  },
];

export function HowToPage() {
  return (
    <Page
      eyebrow="How To"
      title="From your writing to your Voice"
      description="Five steps, most of them waiting."
      size="md"
    >
      <Timeline active={STEPS.length} bulletSize={28} lineWidth={2}>
        {STEPS.map((step) => (
          <Timeline.Item
            key={step.title}
            bullet={step.icon}
            title={
              <Title order={2} fz="lg">
                {step.title}
              </Title>
            }
          >
            <Text c="dimmed" mt={4} mb="md">
              {step.text}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      <Stack gap={4}>
        <Text fw={600}>Tips for a good Voice</Text>
        <Text c="dimmed">
          Use writing you actually like and that was written by you alone: blog posts, newsletters, long e-mails.
          Several topics help; text you edited heavily with other tools does not. Ready?{' '}
          <Anchor component={Link} to={PATHS.auth} underline="always">
            Create your account
          </Anchor>
          .
        </Text>
      </Stack>
    </Page>
  );
}
