// The Voice feature's calls: one Voice, the public list, fork, create, and the per-file
// character count the create form shows.
import { type CharacterCount, characterCountSchema, type Voice, voiceSchema } from '@ownvoice/shared';
import { api } from '../../lib/api';
import { apiErrorFromBody } from '../../lib/api-error';
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

/** GET /loras/:id/package: the owner's Voice as a .zip, with the file name the server gives it. */
/** What a Voice downloads as: its package (.zip), or one model file with it merged in (.gguf). */
export type VoiceDownload = 'package' | 'merged-model';

const DOWNLOADS: Record<VoiceDownload, { accept: string; fallbackName: string }> = {
  package: { accept: 'application/zip', fallbackName: 'voice-ownvoice.zip' },
  'merged-model': { accept: 'application/octet-stream', fallbackName: 'voice-ownvoice.gguf' },
};

/** GET /loras/:id/package or /merged-model: the file, under the name the server gives it. */
export async function downloadVoiceFile(id: string, kind: VoiceDownload): Promise<{ fileName: string; data: Blob }> {
  const { accept, fallbackName } = DOWNLOADS[kind];
  const response = await api.stream(`${voicePathOf(id)}/${kind}`, { method: 'GET', accept });
  if (!response.ok) throw apiErrorFromBody(response.status, await response.json().catch(() => undefined));
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { fileName, data: await response.blob() };
}

/** POST /loras/import: a downloaded package, sent as it is, becomes a Voice of this account. */
export const importVoicePackage = (file: File): Promise<Voice> =>
  api.post('/loras/import', file, { schema: voiceSchema });
