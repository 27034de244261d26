// The user's Voice list and the cache keys of every Voice query. Shared because the dashboard shows
// the list, Convert and Create pick from it, and creating or forking a Voice must refresh it.
import { type Voice, voiceSchema } from '@ownvoice/shared';
import { z } from 'zod';
import { api } from './api';

export const voiceKeys = {
  all: ['voices'] as const,
  mine: ['voices', 'mine'] as const,
  public: ['voices', 'public'] as const,
  one: (id: string) => ['voices', 'one', id] as const,
};

export const voiceListSchema = z.array(voiceSchema);

/** GET /loras: the signed-in user's Voices. */
export function fetchMyVoices(signal?: AbortSignal): Promise<Voice[]> {
  return api.get('/loras', { schema: voiceListSchema, ...(signal ? { signal } : {}) });
}
