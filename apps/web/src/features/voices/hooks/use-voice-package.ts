// Taking a Voice home and bringing one in: a download saves the file the server names (the
// package, or the model file with the Voice merged in, which takes a while to build); an
// import lands in the user's list and uses a storage slot, so both are refreshed, and a full
// storage opens the purchase modal.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { voicePath } from '../../../lib/paths';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { saveFile } from '../../../lib/save-file';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifyNotice, notifySuccess } from '../../../lib/toast';
import { voiceKeys } from '../../../lib/voice-queries';
import { downloadVoiceFile, importVoicePackage, type VoiceDownload } from '../api';

export function useDownloadVoice(id: string) {
  const mutation = useMutation({
    mutationFn: (kind: VoiceDownload) => downloadVoiceFile(id, kind),
    onMutate: (kind) => {
      if (kind === 'merged-model') {
        notifyNotice(
          'OwnVoice is building one model file with your Voice merged in. It takes up to a few minutes; the download starts when it is ready.',
          'Building the model file',
        );
      }
    },
    onSuccess: ({ fileName, data }) => saveFile(fileName, data),
    onError: (error) => notifyError(errorMessage(error, 'The download failed. Please try again.'), 'Download failed'),
  });
  return {
    download: (kind: VoiceDownload) => mutation.mutate(kind),
    /** The download under way, if any. */
    pending: mutation.isPending ? mutation.variables : undefined,
  };
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
