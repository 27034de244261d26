// Taking a Voice home and bringing one in: the download saves the .zip the server names; an
// import lands in the user's list and uses a storage slot, so both are refreshed, and a full
// storage opens the purchase modal.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { voicePath } from '../../../lib/paths';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { saveFile } from '../../../lib/save-file';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { voiceKeys } from '../../../lib/voice-queries';
import { downloadVoicePackage, importVoicePackage } from '../api';

export function useDownloadVoice(id: string) {
  const mutation = useMutation({
    mutationFn: () => downloadVoicePackage(id),
    onSuccess: ({ fileName, data }) => saveFile(fileName, data),
    onError: (error) => notifyError(errorMessage(error, 'The download failed. Please try again.'), 'Download failed'),
  });
  return { download: () => mutation.mutate(), pending: mutation.isPending };
}

export function useImportVoice() {
  const queryClient = useQueryClient();
  const session = useSession();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: (file: File) => importVoicePackage(file),
    onSuccess: (voice) => {
      notifySuccess(`“${voice.name}” is imported. Wake it to start writing.`, 'Voice imported');
      void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
      void session.refresh().catch(() => undefined);
      void navigate(voicePath(voice._id));
    },
    onError: (error) => {
      if (handleInsufficientLimit(error)) return;
    },
  });
  return {
    importFile: (file: File) => mutation.mutate(file),
    pending: mutation.isPending,
    /** Why the last import was refused (not for a full storage: the purchase modal says that). */
    error: mutation.error && !(mutation.error as { reason?: string }).reason ? mutation.error : null,
  };
}
