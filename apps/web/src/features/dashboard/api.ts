// The dashboard's calls on one Voice: wake, sleep, rename, visibility, delete. The list
// itself is shared (lib/voice-queries), since other screens read it too.
import { okResponseSchema, type Voice, voiceSchema } from '@ownvoice/shared';
import { api } from '../../lib/api';

const voicePathOf = (id: string) => `/loras/${encodeURIComponent(id)}`;

export const activateVoice = (id: string): Promise<Voice> =>
  api.post(`${voicePathOf(id)}/activate`, undefined, { schema: voiceSchema });

export const deactivateVoice = (id: string): Promise<Voice> =>
  api.post(`${voicePathOf(id)}/deactivate`, undefined, { schema: voiceSchema });

export const renameVoice = (id: string, name: string): Promise<Voice> =>
  api.patch(voicePathOf(id), { name }, { schema: voiceSchema });

export const setVoiceVisibility = (id: string, isPublic: boolean): Promise<Voice> =>
  api.patch(voicePathOf(id), { isPublic }, { schema: voiceSchema });

export const deleteVoice = async (id: string): Promise<void> => {
  await api.delete(voicePathOf(id), { schema: okResponseSchema });
};
