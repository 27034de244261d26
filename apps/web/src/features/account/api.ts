// The account screen's calls: two-factor setup, verify and disable, deleting the account, and the
// latest security events.
import {
  type Activity,
  type DeleteAccountBody,
  type MfaSetupResponse,
  type MfaVerifyResponse,
  mfaSetupResponseSchema,
  mfaVerifyResponseSchema,
  okResponseSchema,
  ownActivitiesResponseSchema,
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
