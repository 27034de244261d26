// The API keys card: the list, making a key with the password again (and a code while two-factor
// is on; its secret kept here until the person closes the dialog that shows it, never stored), and
// revoking one after a confirmation.
import type { ApiKey, CreatedApiKey } from '@ownvoice/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createApiKey, fetchApiKeys, revokeApiKey } from '../api';
import { type ApiKeyInput, apiKeyBody } from '../credential-change';

/** The key list's query: the password card reads it afresh after a change of password. */
export const API_KEYS_QUERY_KEY = ['account', 'api-keys'] as const;
const KEYS = API_KEYS_QUERY_KEY;

/** What the new-key form sends: its fields, and whether a code must come with the password. */
export interface NewApiKey {
  input: ApiKeyInput;
  needsCode: boolean;
}

export function useApiKeys() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEYS, queryFn: ({ signal }) => fetchApiKeys(signal) });
  /** The key just made, with its secret, while its dialog is open. */
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  /** The key a person asked to revoke, while the confirmation is open. */
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = useMutation({
    // A broken form rule is thrown as a FormError before anything is sent.
    mutationFn: ({ input, needsCode }: NewApiKey) => createApiKey(apiKeyBody(input, needsCode)),
    onSuccess: (answer) => {
      setCreated(answer);
      void queryClient.invalidateQueries({ queryKey: KEYS });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeApiKey(id),
    onSettled: () => {
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: KEYS });
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
    revoke,
    revoking,
    askRevoke: setRevoking,
  };
}
