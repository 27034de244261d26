// The account screen's calls: two-factor setup, verify and disable, deleting the account, the
// latest security events, changing the address or the password, the e-mail notices, and API keys.
import {
  type Activity,
  type ApiKey,
  apiKeyListSchema,
  type ChangeEmailBody,
  type ChangePasswordBody,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createdApiKeySchema,
  type DeleteAccountBody,
  linkSentResponseSchema,
  type MfaSetupResponse,
  type MfaVerifyResponse,
  meResponseSchema,
  mfaSetupResponseSchema,
  mfaVerifyResponseSchema,
  okResponseSchema,
  ownActivitiesResponseSchema,
  type User,
} from '@ownvoice/shared';
import { api } from '../../lib/api';

export const startMfaSetup = (): Promise<MfaSetupResponse> =>
  api.post('/auth/mfa/setup', undefined, { schema: mfaSetupResponseSchema });

export const verifyMfa = (secret: string, token: string): Promise<MfaVerifyResponse> =>
  api.post('/auth/mfa/verify', { secret, token }, { schema: mfaVerifyResponseSchema });

export const disableMfa = async (mfaToken: string): Promise<void> => {
  await api.post('/auth/mfa/disable', { mfaToken }, { schema: okResponseSchema });
};

export const deleteAccount = async (body: DeleteAccountBody): Promise<void> => {
  await api.request('/auth/account', { method: 'DELETE', body, schema: okResponseSchema });
};

export const fetchOwnActivities = async (signal?: AbortSignal): Promise<Activity[]> => {
  const answer = await api.get('/auth/activities', {
    schema: ownActivitiesResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return answer.data.activities;
};

/** Sends a link to the new address; the address changes once it is opened. Answers what to look for. */
export const changeEmail = async (body: ChangeEmailBody): Promise<string> =>
  (await api.post('/auth/email/change', body, { schema: linkSentResponseSchema })).msg;

/** Every other session is ended; this one stays signed in. */
export const changePassword = async (body: ChangePasswordBody): Promise<void> => {
  await api.post('/auth/password/change', body, { schema: okResponseSchema });
};

/** The notices switched off (switchable ones only); answers the user as it is now. */
export const saveMutedNotices = async (muted: string[]): Promise<User> =>
  (await api.request('/auth/notices', { method: 'PUT', body: { muted }, schema: meResponseSchema })).user;

export const fetchApiKeys = async (signal?: AbortSignal): Promise<ApiKey[]> =>
  (await api.get('/auth/api-keys', { schema: apiKeyListSchema, ...(signal ? { signal } : {}) })).keys;

/** Answers the new key with its secret, which the server never shows again. */
export const createApiKey = (body: CreateApiKeyRequest): Promise<CreatedApiKey> =>
  api.post('/auth/api-keys', body, { schema: createdApiKeySchema });

export const revokeApiKey = async (id: string): Promise<void> => {
  await api.request(`/auth/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', schema: okResponseSchema });
};
