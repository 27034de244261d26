// The account screen's calls: two-factor setup, verify and disable, and deleting the account.
import {
  type DeleteAccountBody,
  type MfaSetupResponse,
  type MfaVerifyResponse,
  mfaSetupResponseSchema,
  mfaVerifyResponseSchema,
  okResponseSchema,
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
