// "Creating Voice...": shown under a temporary id while the upload runs. When the
// server answers it moves on to the real training page, or back to the form, which still holds
// everything. A temporary id with no upload behind it (a reload) leads to the dashboard after
// the usual placeholder time.
import { Loader, Stack, Text } from '@mantine/core';
import { VOICE_TIMINGS } from '@ownvoice/shared';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS, voiceTrainingPath } from '../../../lib/paths';
import { useCurrentUser } from '../../../lib/session/session-context';
import { acknowledgeSubmission, useCreateVoiceState } from '../create-voice-store';

export function CreatingVoicePlaceholder({ tempId }: { tempId: string }) {
  const user = useCurrentUser();
  const { submission } = useCreateVoiceState(user.id);
  const navigate = useNavigate();
  const [slow, setSlow] = useState(false);
  const mine = submission.state !== 'idle' && submission.tempId === tempId;

  useEffect(() => {
    if (!mine) return;
    if (submission.state === 'created') {
      navigate(voiceTrainingPath(submission.voiceId), { replace: true });
      acknowledgeSubmission(tempId);
    } else if (submission.state === 'failed') {
      navigate(PATHS.createVoice, { replace: true });
      acknowledgeSubmission(tempId);
    }
  }, [mine, submission, tempId, navigate]);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (mine) setSlow(true);
      else navigate(PATHS.dashboard, { replace: true });
    }, VOICE_TIMINGS.tempPlaceholderMs);
    return () => clearTimeout(timer);
  }, [mine, navigate]);

  return (
    <Page title="Creating Voice..." documentTitle="Creating Voice">
      <Stack align="center" py={64} gap="md" ta="center" data-testid="creating-voice">
        <Loader size="xl" type="dots" />
        <Text c="dimmed">Uploading your writing and queueing the training run.</Text>
        {slow && <Text c="dimmed">Still uploading. Large files take a little longer.</Text>}
      </Stack>
    </Page>
  );
}
