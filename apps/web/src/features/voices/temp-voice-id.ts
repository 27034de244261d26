// While the create request is in flight the training page shows a placeholder under a temporary
// id, so the user leaves the form at once.
export const TEMP_VOICE_ID_PREFIX = 'temp-';

export const isTempVoiceId = (id: string): boolean => id.startsWith(TEMP_VOICE_ID_PREFIX);

/** Unique enough for one browser tab; crypto.randomUUID needs a secure context, this does not. */
export const newTempVoiceId = (): string =>
  `${TEMP_VOICE_ID_PREFIX}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
