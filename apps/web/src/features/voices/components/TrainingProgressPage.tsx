// /dashboard/loras/:id/training: the live training state and a game of Rota to pass
// the time; the tab's title follows the training and says when the Voice is ready. A
// temporary id belongs to an upload still in flight.
import { Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { Page } from '../../../components/Page';
import { useVoice } from '../hooks/use-voice';
import { RotaGame } from '../rota';
import { isTempVoiceId } from '../temp-voice-id';
import { trainingDocumentTitle } from '../training-status';
import { CreatingVoicePlaceholder } from './CreatingVoicePlaceholder';
import { TrainingStatusPanel } from './TrainingStatusPanel';

function TrainingProgress({ id }: { id: string }) {
  const query = useVoice(id);
  return (
    <Page title="Training progress" documentTitle={trainingDocumentTitle(query.data)} size="md">
      <TrainingStatusPanel query={query} />
      <Stack mt="xl" maw={420} w="100%" mx="auto">
        <RotaGame />
      </Stack>
    </Page>
  );
}

export function TrainingProgressPage() {
  const { id = '' } = useParams();
  if (isTempVoiceId(id)) return <CreatingVoicePlaceholder tempId={id} />;
  // Keyed by id: a replaced URL (temporary id to real id) starts a fresh status.
  return <TrainingProgress key={id} id={id} />;
}
