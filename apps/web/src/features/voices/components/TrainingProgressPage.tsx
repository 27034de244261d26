import { Button, Code, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';
import { RotaGame } from '../rota';

/** A Voice whose creation request is still in flight has a temporary id (companion spec §2). */
const TEMPORARY_ID_PREFIX = 'temp-';

export function TrainingProgressPage() {
  const { id = '' } = useParams();
  if (id.startsWith(TEMPORARY_ID_PREFIX)) {
    return (
      <Page title="Creating Voice..." documentTitle="Creating Voice">
        <Stack align="center" py={64} gap="md">
          <Loader size="xl" type="dots" />
          <Text c="dimmed">Uploading your writing and queueing the training run.</Text>
        </Stack>
      </Page>
    );
  }
  return (
    <Page title="Training progress" documentTitle="Training progress">
      <ComingSoon
        title="Live training progress is coming"
        actions={
          <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconArrowLeft size={18} />}>
            Back to My Voices
          </Button>
        }
      >
        <Text span>
          Progress for Voice <Code>{id}</Code> will show here. Meanwhile, a game of Rota passes the time.
        </Text>
      </ComingSoon>
      <Stack mt="xl" maw={420} mx="auto">
        <RotaGame />
      </Stack>
    </Page>
  );
}
