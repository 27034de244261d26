// /dashboard/loras/:id/training: the live training state and a game of Rota to pass
// the time; the tab's title follows the training and says when the Voice is ready, and the
// headings stop speaking of waiting once it has ended. A
// temporary id belongs to an upload still in flight; an address naming no Voice says so.
import { Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { Page } from '../../../components/Page';
import { useVoice } from '../hooks/use-voice';
import { RotaGame } from '../rota';
import { isTempVoiceId } from '../temp-voice-id';
import { trainingDocumentTitle, trainingPageHeadings } from '../training-status';
import { voiceMissing } from '../voice-missing';
import { CreatingVoicePlaceholder } from './CreatingVoicePlaceholder';
import { TrainingStatusPanel } from './TrainingStatusPanel';
import { VOICE_NOT_FOUND_TITLE, VoiceNotFound } from './VoiceNotFound';

function TrainingProgress({ id }: { id: string }) {
  const query = useVoice(id);
  const missing = voiceMissing(id, query.error);
  if (missing) {
    return (
      <Page title={VOICE_NOT_FOUND_TITLE} size="md">
        <VoiceNotFound missing={missing} withBack />
      </Page>
    );
  }
  const headings = trainingPageHeadings(query.data);
  return (
    <Page title={headings.page} documentTitle={trainingDocumentTitle(query.data)} size="md">
      <TrainingStatusPanel query={query} />
      <Stack mt="xl" maw={420} w="100%" mx="auto">
        <RotaGame title={headings.game} />
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
