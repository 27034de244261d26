// A card of credentials a person makes and removes (API keys, webhooks): the list, making one with
// the password again (its secret kept here until the person closes the dialog that shows it, never
// stored), and removing one after a confirmation.
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/** What a new-credential form sends: its fields, and whether a code must come with the password. */
export interface NewCredential<Input> {
  input: Input;
  needsCode: boolean;
}

export function useCredentials<Item extends { id: string }, Created, Input>(api: {
  queryKey: QueryKey;
  fetch: (signal: AbortSignal) => Promise<Item[]>;
  /** Throws a FormError for a broken form rule before anything is sent. */
  create: (request: NewCredential<Input>) => Promise<Created>;
  remove: (id: string) => Promise<unknown>;
}) {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: api.queryKey, queryFn: ({ signal }) => api.fetch(signal) });
  /** The one just made, with its secret, while its dialog is open. */
  const [created, setCreated] = useState<Created | null>(null);
  /** The one a person asked to remove, while the confirmation is open. */
  const [removing, setRemoving] = useState<Item | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: api.queryKey });

  const create = useMutation({
    mutationFn: api.create,
    onSuccess: (answer) => {
      setCreated(answer);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: api.remove,
    onSettled: () => {
      setRemoving(null);
      refresh();
    },
  });

  return {
    list,
    create,
    created,
    dismissCreated: () => {
      setCreated(null);
      create.reset();
    },
    remove,
    removing,
    askRemove: setRemoving,
  };
}
