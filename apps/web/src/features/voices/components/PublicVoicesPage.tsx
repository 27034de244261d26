// /dashboard/public-loras: Voices other writers shared, each to fork into a private copy.
import { Badge, Button, Card, Center, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import { IconArrowLeft, IconGitFork, IconWorld } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/format';
import { PATHS, voicePath } from '../../../lib/paths';
import { useForkVoice, usePublicVoices } from '../hooks/use-public-voices';

function PublicVoiceCard({ voice, onFork, forking }: { voice: Voice; onFork: () => void; forking: boolean }) {
  return (
    <Card padding="lg" data-testid="public-voice-card" data-voice-id={voice._id}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Text
            component={Link}
            to={voicePath(voice._id)}
            fw={700}
            fz="lg"
            style={{ wordBreak: 'break-word' }}
            data-testid="public-voice-name"
          >
            {voice.name}
          </Text>
          {voice.isOwner && <Badge variant="outline">yours</Badge>}
        </Group>
        <Text fz="sm" c="dimmed">
          by <span data-testid="public-voice-owner">{voice.ownerName ?? 'a writer'}</span> ·{' '}
          {formatDate(voice.createdAt)}
        </Text>
        <Group mt="auto" pt="xs">
          <Button size="sm" leftSection={<IconGitFork size={16} />} onClick={onFork} loading={forking}>
            Fork
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

function PublicVoiceList() {
  const query = usePublicVoices();
  const { fork, forkingId } = useForkVoice();
  if (query.isPending) {
    return (
      <Center py={64}>
        <Loader aria-label="Loading public Voices" />
      </Center>
    );
  }
  if (query.isError) return <ErrorAlert message="Failed to fetch public Voices" />;
  if (query.data.length === 0) {
    return (
      <Card py={56} data-testid="public-voices-empty">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" variant="light" color="gray">
            <IconWorld size={32} />
          </ThemeIcon>
          <Text c="dimmed">There are no public LoRAs to display at this time.</Text>
        </Stack>
      </Card>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
      {query.data.map((voice) => (
        <PublicVoiceCard
          key={voice._id}
          voice={voice}
          onFork={() => fork(voice._id)}
          forking={forkingId === voice._id}
        />
      ))}
    </SimpleGrid>
  );
}

export function PublicVoicesPage() {
  return (
    <Page
      title="Public Voices"
      description="Voices other writers have shared. Fork one to get a private copy of your own."
      actions={
        <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconArrowLeft size={18} />}>
          My Voices
        </Button>
      }
    >
      <PublicVoiceList />
    </Page>
  );
}
