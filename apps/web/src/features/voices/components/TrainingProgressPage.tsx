// /dashboard/loras/:id/training: the live training state and a game of Rota to pass
// the time. A temporary id belongs to an upload still in flight.
import { Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { Page } from '../../../components/Page';
import { RotaGame } from '../rota';
import { isTempVoiceId } from '../temp-voice-id';
import { CreatingVoicePlaceholder } from './CreatingVoicePlaceholder';
import { TrainingStatusPanel } from './TrainingStatusPanel';

export function TrainingProgressPage() {
  const { id = '' } = useParams();
  if (isTempVoiceId(id)) return <CreatingVoicePlaceholder tempId={id} />;
  return (
    <Page title="Training progress" documentTitle="Training progress" size="md">
      {/* Keyed by id: a replaced URL (temporary id to real id) starts a fresh status. */}
      <TrainingStatusPanel key={id} id={id} />
      <Stack mt="xl" maw={420} w="100%" mx="auto">
        <RotaGame />
      </Stack>
    </Page>
  );
}
