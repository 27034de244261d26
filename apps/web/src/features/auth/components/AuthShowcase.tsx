import { List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';

const POINTS = [
  'Train a private Voice on your own writing',
  'Rewrite generic AI text so it sounds like you',
  'Create blog posts, e-mails, ad copy and speeches in your style',
];

/** The brand panel beside the forms on wide screens. */
export function AuthShowcase() {
  return (
    <Stack
      gap="lg"
      p={40}
      h="100%"
      justify="center"
      style={{
        borderRadius: 'var(--mantine-radius-lg)',
        background: 'linear-gradient(145deg, var(--mantine-color-violet-8) 0%, var(--mantine-color-indigo-7) 100%)',
        color: 'white',
      }}
    >
      <Title order={2} c="white" fz={30}>
        Write like yourself, only faster.
      </Title>
      <Text c="violet.1" fz="lg">
        OwnVoice learns how you write and keeps your tone, rhythm and word choice in everything it produces.
      </Text>
      <List
        spacing="sm"
        center
        icon={
          <ThemeIcon color="white" c="violet.8" size={22} radius="xl">
            <IconCheck size={14} stroke={3} />
          </ThemeIcon>
        }
      >
        {POINTS.map((point) => (
          <List.Item key={point}>
            <Text c="white">{point}</Text>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
