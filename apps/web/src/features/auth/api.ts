// The auth screen's own calls; signing in and out goes through the session.
import {
  type ForgotPasswordBody,
  type PublicStats,
  publicStatsSchema,
  type RegisterBody,
  type ResetPasswordBody,
  type VerifyEmailResponse,
  verifyEmailResponseSchema,
} from '@ownvoice/shared';
import { z } from 'zod';
import { api } from '../../lib/api';

/** The raw answer: { token, user } when the account was created. */
export function postRegister(body: RegisterBody): Promise<unknown> {
  return api.post('/auth/register', body, { token: null });
}

const messageSchema = z.object({ msg: z.string() });

/** "Forgot password?": the same answer whether or not an account uses the address. */
export async function askPasswordReset(body: ForgotPasswordBody): Promise<string> {
  return (await api.post('/auth/password/forgot', body, { token: null, schema: messageSchema })).msg;
}

/** The reset link's new password (and the code when two-factor is on). */
export async function resetPassword(body: ResetPasswordBody): Promise<string> {
  return (await api.post('/auth/password/reset', body, { token: null, schema: messageSchema })).msg;
}

/**
 * An e-mailed link's token: confirms the address it was sent to (a sign-up's, or a new one). The
 * link says whose address it is; the session goes along so that a change of address, which ends
 * the account's sessions, keeps this one when it is that account's.
 */
export function verifyEmail(token: string): Promise<VerifyEmailResponse> {
  return api.post('/auth/email/verify', { token }, { schema: verifyEmailResponseSchema });
}

export function fetchPublicStats(signal?: AbortSignal): Promise<PublicStats> {
  return api.get('/public/stats', { schema: publicStatsSchema, ...(signal ? { signal } : {}) });
}

export const publicStatsKey = ['public', 'stats'] as const;
