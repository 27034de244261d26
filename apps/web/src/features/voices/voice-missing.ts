// Whether the Voice an address names is missing: an id that cannot be a Voice's (the server's
// are 24 hexadecimal characters) is never asked for, and the server's 404 means there is none the
// person may see. Either way the page says the Voice does not exist, not that a fetch failed.
import { ID_PATTERN } from '@ownvoice/shared';
import { isApiError } from '../../lib/api-error';

export const isVoiceId = (id: string): boolean => ID_PATTERN.test(id);

export type VoiceMissing = 'malformed' | 'not_found' | null;

export function voiceMissing(id: string, error: unknown): VoiceMissing {
  if (!isVoiceId(id)) return 'malformed';
  return isApiError(error) && error.status === 404 ? 'not_found' : null;
}

export const VOICE_MISSING_WORDS: Record<Exclude<VoiceMissing, null>, string> = {
  malformed: 'This Voice does not exist: the address does not name one.',
  // The server answers the same for a private Voice of someone else's: it stays unseen.
  not_found: 'This Voice does not exist, or it is not shared with you.',
};
