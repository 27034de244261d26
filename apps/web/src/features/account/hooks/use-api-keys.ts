// The API keys card's state (use-credentials.ts): the list, making a key with the password again
// (and a code while two-factor is on), and revoking one after a confirmation.
import type { ApiKey, CreatedApiKey } from '@ownvoice/shared';
import { createApiKey, fetchApiKeys, revokeApiKey } from '../api';
import { type ApiKeyInput, apiKeyBody } from '../credential-change';
import { useCredentials } from './use-credentials';

/** The key list's query: the password card reads it afresh after a change of password. */
export const API_KEYS_QUERY_KEY = ['account', 'api-keys'] as const;
const KEYS = API_KEYS_QUERY_KEY;

export const useApiKeys = () =>
  useCredentials<ApiKey, CreatedApiKey, ApiKeyInput>({
    queryKey: KEYS,
    fetch: fetchApiKeys,
    create: ({ input, needsCode }) => createApiKey(apiKeyBody(input, needsCode)),
    remove: revokeApiKey,
  });
