// What the dashboard's buttons do: wake and sleep show at once and revert on failure,
// rename likewise; visibility and delete wait for the server. Failures prefer the server's message;
// a resource that ran out opens the purchase modal instead of a toast.
import { type Voice, voiceNameSchema } from '@ownvoice/shared';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-error';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { useSession } from '../../../lib/session/session-context';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { voiceKeys } from '../../../lib/voice-queries';
import { activateVoice, deactivateVoice, deleteVoice, renameVoice, setVoiceVisibility } from '../api';
import type { VoiceHolds } from './use-my-voices';

const DASHBOARD_MESSAGES = {
  activate: 'Failed to activate LoRA',
  deactivate: 'Failed to deactivate LoRA',
  rename: 'Failed to rename Voice',
  delete: 'Failed to delete Voice',
  visibility: 'Failed to update LoRA visibility',
} as const;

function reportFailure(error: unknown, fallback: string): void {
  if (handleInsufficientLimit(error)) return;
  notifyError(errorMessage(error, fallback));
}

/** Puts the server's answer for one Voice into the list and the single-Voice cache. */
function storeVoice(queryClient: QueryClient, voice: Voice): void {
  queryClient.setQueryData<Voice[]>(voiceKeys.mine, (list) => list?.map((v) => (v._id === voice._id ? voice : v)));
  queryClient.setQueryData(voiceKeys.one(voice._id), voice);
}

/** The server's own record of a Voice, which an optimistic hold compares against. */
const serverVoice = (queryClient: QueryClient, id: string): Voice | undefined =>
  queryClient.getQueryData<Voice[]>(voiceKeys.mine)?.find((v) => v._id === id);

export function useVoiceActions({ hold, release, markChanged }: VoiceHolds) {
  const queryClient = useQueryClient();
  const session = useSession();
  const refetchList = () => queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
  // A list fetched before the click must not land after the server's answer and undo it.
  const cancelListFetch = () => queryClient.cancelQueries({ queryKey: voiceKeys.mine });

  const onSettledChange = () => markChanged();

  const power = useMutation({
    mutationFn: ({ id, wake }: { id: string; wake: boolean }) => (wake ? activateVoice(id) : deactivateVoice(id)),
    onMutate: async ({ id, wake }) => {
      markChanged();
      hold(id, 'status', {
        value: wake ? 'activating' : 'deactivating',
        from: serverVoice(queryClient, id)?.status ?? (wake ? 'ready' : 'active'),
        since: Date.now(),
      });
      await cancelListFetch();
    },
    onSuccess: (voice) => storeVoice(queryClient, voice),
    onError: (error, { id, wake }) => {
      release(id, 'status');
      void refetchList();
      reportFailure(error, wake ? DASHBOARD_MESSAGES.activate : DASHBOARD_MESSAGES.deactivate);
    },
    onSettled: onSettledChange,
  });

  const rename = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => renameVoice(id, name),
    onMutate: async ({ id, name }) => {
      markChanged();
      const from = serverVoice(queryClient, id)?.name;
      if (from !== undefined) hold(id, 'name', { value: name, from, since: Date.now() });
      await cancelListFetch();
    },
    onSuccess: (voice) => storeVoice(queryClient, voice),
    onError: (error, { id }) => {
      release(id, 'name');
      void refetchList();
      reportFailure(error, DASHBOARD_MESSAGES.rename);
    },
    onSettled: onSettledChange,
  });

  const visibility = useMutation({
    mutationFn: ({ id, isPublic }: { id: string; isPublic: boolean }) => setVoiceVisibility(id, isPublic),
    onMutate: markChanged,
    onSuccess: (voice) => {
      storeVoice(queryClient, voice);
      void queryClient.invalidateQueries({ queryKey: voiceKeys.public });
      notifySuccess(voice.isPublic ? 'Your Voice is now public.' : 'Your Voice is now private.');
    },
    onError: (error) => {
      void refetchList();
      reportFailure(error, DASHBOARD_MESSAGES.visibility);
    },
    onSettled: onSettledChange,
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteVoice(id),
    onMutate: markChanged,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Voice[]>(voiceKeys.mine, (list) => list?.filter((v) => v._id !== id));
      queryClient.removeQueries({ queryKey: voiceKeys.one(id) });
      void queryClient.invalidateQueries({ queryKey: voiceKeys.public });
      // A storage slot came free.
      void session.refresh().catch(() => undefined);
      notifySuccess('Voice deleted.');
    },
    onError: (error) => {
      void refetchList();
      reportFailure(error, DASHBOARD_MESSAGES.delete);
    },
    onSettled: onSettledChange,
  });

  return {
    wake: (id: string) => power.mutate({ id, wake: true }),
    sleep: (id: string) => power.mutate({ id, wake: false }),
    /** A blank name (after the shared filter) is ignored, as is the current name. */
    rename: (voice: Voice, rawName: string) => {
      const parsed = voiceNameSchema.safeParse(rawName);
      if (!parsed.success || parsed.data === voice.name) return;
      rename.mutate({ id: voice._id, name: parsed.data });
    },
    setVisibility: (id: string, isPublic: boolean) => visibility.mutate({ id, isPublic }),
    remove: (id: string) => remove.mutate(id),
  };
}
