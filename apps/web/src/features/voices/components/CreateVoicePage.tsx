// /dashboard/create: Voice creation. Training opens in a later release; the page already offers
// the onboarding "Skip this step", which is how a new account reaches its dashboard today.
import { Button, Card, Group, List, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { isAtLeast } from '@ownvoice/shared';
import { IconFileText, IconLayoutDashboard, IconPlayerSkipForward, IconSchool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../app/session/session-context';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';
import { useSkipTraining } from '../hooks/use-skip-training';

export function CreateVoicePage() {
  const user = useCurrentUser();
  const { skip, pending } = useSkipTraining();
  const canSkip = !isAtLeast(user.onboarding.step, 'training_started');

  return (
    <Page title="Create a new Voice" description="Train a private model on your own writing.">
      <ComingSoon
        title="Voice training opens soon"
        actions={
          canSkip ? (
            <Button onClick={skip} loading={pending} size="md" rightSection={<IconPlayerSkipForward size={18} />}>
              Skip this step
            </Button>
          ) : (
            <Button component={Link} to={PATHS.dashboard} size="md" leftSection={<IconLayoutDashboard size={18} />}>
              Back to My Voices
            </Button>
          )
        }
      >
        The upload form arrives with the next release.{' '}
        {canSkip ? 'Skip this step to look around your dashboard in the meantime.' : 'Check back shortly.'}
      </ComingSoon>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card>
          <Group gap="sm" mb="sm" wrap="nowrap">
            <ThemeIcon variant="light" size={40} radius="md">
              <IconFileText size={22} />
            </ThemeIcon>
            <Title order={2} fz="lg">
              What you will need
            </Title>
          </Group>
          <List spacing="xs" fz="sm">
            <List.Item>At least 20,000 characters of your own writing (about 40,000 is ideal)</List.Item>
            <List.Item>Pasted text, or files: .txt, .md, .pdf, .docx, .epub, .html, .jsonl</List.Item>
            <List.Item>Up to 10 MB per file and 50 MB in total</List.Item>
          </List>
        </Card>
        <Card>
          <Group gap="sm" mb="sm" wrap="nowrap">
            <ThemeIcon variant="light" size={40} radius="md">
              <IconSchool size={22} />
            </ThemeIcon>
            <Title order={2} fz="lg">
              What happens next
            </Title>
          </Group>
          <Text fz="sm" c="dimmed">
            Training takes about 30 minutes. You can follow its progress, and even play a round of Rota while you wait.
            Once it is done, wake your Voice and start converting.
          </Text>
        </Card>
      </SimpleGrid>
    </Page>
  );
}
