// The API keys card: the list, making a key (its secret kept here until the person closes the
// dialog that shows it, never stored), and revoking one after a confirmation.
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '@ownvoice/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createApiKey, fetchApiKeys, revokeApiKey } from '../api';

const KEYS = ['account', 'api-keys'] as const;

export function useApiKeys() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEYS, queryFn: ({ signal }) => fetchApiKeys(signal) });
  /** The key just made, with its secret, while its dialog is open. */
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  /** The key a person asked to revoke, while the confirmation is open. */
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const create = useMutation({
    mutationFn: (body: CreateApiKeyRequest) => createApiKey(body),
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
