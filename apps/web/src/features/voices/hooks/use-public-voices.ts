// Public Voices and forking: a fork lands in the user's own list and uses a storage
// slot, so both are refreshed; a full storage opens the purchase modal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-error';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { voiceKeys } from '../../../lib/voice-queries';
import { fetchPublicVoices, forkVoice } from '../api';

export function usePublicVoices() {
  return useQuery({ queryKey: voiceKeys.public, queryFn: ({ signal }) => fetchPublicVoices(signal) });
}

export function useForkVoice() {
  const queryClient = useQueryClient();
  const session = useSession();
  const mutation = useMutation({
    mutationFn: (id: string) => forkVoice(id),
    onSuccess: () => {
      notifySuccess('LoRA forked successfully!');
      void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
      void session.refresh().catch(() => undefined);
    },
    onError: (error) => {
      if (handleInsufficientLimit(error)) return;
      // The product's words: the title says what failed, the text why (the server's, or its fallback).
      notifyError(errorMessage(error, 'Failed to fork LoRA'), 'Failed to fork Voice');
    },
  });
  return {
    fork: (id: string) => mutation.mutate(id),
    /** The Voice being forked right now, for its button's spinner. */
    forkingId: mutation.isPending ? mutation.variables : undefined,
  };
}
