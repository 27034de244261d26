// What the Create form checks before it sends anything: a Voice,
// a prompt within MAX_PROMPT_CHARS and, for Quick mode, a reference file of an accepted type and size.
import {
  CREATE_MESSAGES,
  hasAcceptedExtension,
  ID_PATTERN,
  MAX_FILE_BYTES,
  MAX_PROMPT_CHARS,
  VOICE_MESSAGES,
} from '@ownvoice/shared';

export interface CreateForm {
  loraId: string | null;
  prompt: string;
  referenceFile?: File | null;
}

/** The first problem with the form, or null when it may be sent. */
export function createFormError({ loraId, prompt, referenceFile }: CreateForm): string | null {
  if (loraId === null || !ID_PATTERN.test(loraId)) return CREATE_MESSAGES.selectVoice;
  const trimmed = prompt.trim();
  if (trimmed === '') return CREATE_MESSAGES.promptRequired;
  if (trimmed.length > MAX_PROMPT_CHARS) return CREATE_MESSAGES.promptTooLong;
  if (referenceFile) return referenceFileError(referenceFile);
  return null;
}

export function referenceFileError(file: Pick<File, 'name' | 'size'>): string | null {
  if (!hasAcceptedExtension(file.name)) return VOICE_MESSAGES.invalidTypes([file.name]);
  if (file.size > MAX_FILE_BYTES) return VOICE_MESSAGES.tooLarge([file.name]);
  return null;
}
