// The auth screen's own calls; signing in and out goes through the session.
import { type PublicStats, publicStatsSchema, type RegisterBody } from '@ownvoice/shared';
import { api } from '../../lib/api';

/** The raw answer: { token, user } when the account was created. */
export function postRegister(body: RegisterBody): Promise<unknown> {
  return api.post('/auth/register', body, { token: null });
}

export function fetchPublicStats(signal?: AbortSignal): Promise<PublicStats> {
  return api.get('/public/stats', { schema: publicStatsSchema, ...(signal ? { signal } : {}) });
}

export const publicStatsKey = ['public', 'stats'] as const;
