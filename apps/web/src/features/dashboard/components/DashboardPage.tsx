// /dashboard (companion spec §2 "Dashboard"): the user's Voices. Until Voices land this shows
// the empty state, which is what every account sees before its first Voice anyway.
import { Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMicrophone, IconPlus, IconWorld } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

function EmptyVoices() {
  return (
    <Card py={56} data-testid="voices-empty">
      <Stack align="center" ta="center" gap="md" maw={480} mx="auto">
        <ThemeIcon size={72} radius="xl" variant="light">
          <IconMicrophone size={36} />
        </ThemeIcon>
        <Title order={2} fz={{ base: 22, sm: 26 }}>
          Create Your First Voice
        </Title>
        <Text c="dimmed">
          A Voice is a private model of your writing style. Give it at least 20,000 characters of your own writing and
          it will be ready in about half an hour.
        </Text>
        <Button component={Link} to={PATHS.createVoice} size="md" leftSection={<IconPlus size={18} />}>
          Create Your First Voice
        </Button>
      </Stack>
    </Card>
  );
}

export function DashboardPage() {
  return (
    <Page
      title="My Voices"
      description="Train, wake and use your writing Voices."
      actions={
        <>
          <Button component={Link} to={PATHS.publicVoices} variant="default" leftSection={<IconWorld size={18} />}>
            Public Voices
          </Button>
          <Button component={Link} to={PATHS.createVoice} leftSection={<IconPlus size={18} />}>
            Create New Voice
          </Button>
        </>
      }
    >
      <EmptyVoices />
    </Page>
  );
}
