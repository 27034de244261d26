// Submitting the create form: the placeholder shows at once under a temporary id
// while the upload runs; once the server accepts the Voice the list and the user are refreshed
// (usage changed, and the server moved onboarding on to training_started).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { voiceTrainingPath } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';
import { voiceKeys } from '../../../lib/voice-queries';
import { submitDraft } from '../create-voice-store';

export function useSubmitVoice(): () => void {
  const queryClient = useQueryClient();
  const session = useSession();
  const navigate = useNavigate();
  return () => {
    const tempId = submitDraft({
      onCreated: () => {
        // Said in a toast too, since the user may have left the placeholder meanwhile.
        notifySuccess('Voice created. Training has started.');
        void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
        // A failed refresh only delays the new usage figures; the Voice exists either way.
        session.refresh().catch(() => undefined);
      },
    });
    if (tempId) navigate(voiceTrainingPath(tempId));
  };
}
