// The Voice feature's calls: one Voice, the public list, fork, create, and the per-file
// character count the create form shows.
import { type CharacterCount, characterCountSchema, type Voice, voiceSchema } from '@ownvoice/shared';
import { api } from '../../lib/api';
import { voiceListSchema } from '../../lib/voice-queries';

const voicePathOf = (id: string) => `/loras/${encodeURIComponent(id)}`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

export const fetchVoice = (id: string, signal?: AbortSignal): Promise<Voice> =>
  api.get(voicePathOf(id), { schema: voiceSchema, ...withSignal(signal) });

export const fetchPublicVoices = (signal?: AbortSignal): Promise<Voice[]> =>
  api.get('/loras/public', { schema: voiceListSchema, ...withSignal(signal) });

export const forkVoice = (id: string): Promise<Voice> =>
  api.post(`${voicePathOf(id)}/fork`, undefined, { schema: voiceSchema });

export interface CreateVoiceInput {
  name: string;
  text: string;
  files: readonly File[];
}

/** POST /loras as multipart: name, the pasted text and every file as a `files` part. */
export function createVoice({ name, text, files }: CreateVoiceInput): Promise<Voice> {
  const form = new FormData();
  form.append('name', name);
  form.append('text', text);
  for (const file of files) form.append('files', file, file.name);
  return api.post('/loras', form, { schema: voiceSchema });
}

/** The characters the server extracts from one file, the same count it trains on. */
export function countCharacters(file: File, signal?: AbortSignal): Promise<CharacterCount> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post('/loras/count-characters', form, { schema: characterCountSchema, ...withSignal(signal) });
}
