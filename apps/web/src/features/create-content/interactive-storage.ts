// The interactive session kept in the browser: one per user
// and mode, so a reload resumes where it was. What comes back is checked against the session
// schema; anything that does not pass (old, edited, another app's) is dropped.
import { type InteractiveMode, type InteractiveState, interactiveStateSchema } from '@ownvoice/shared';
import type { KeyValueStorage } from '../../lib/session/browser-storage';
import { readStoredJson, removeStored, writeStoredJson } from '../../lib/session/stored-json';

export const interactiveStorageKey = (userId: string, mode: InteractiveMode): string =>
  `ownvoice.interactive.${userId}.${mode}`;

/** The saved session of this user and mode, or null (nothing saved, or it did not pass). */
export function loadInteractiveState(
  storage: KeyValueStorage,
  userId: string,
  mode: InteractiveMode,
): InteractiveState | null {
  const key = interactiveStorageKey(userId, mode);
  const state = readStoredJson(storage, key, interactiveStateSchema);
  // A session saved under one mode and claiming another is not this mode's session.
  if (state === null || state.mode === mode) return state;
  removeStored(storage, key);
  return null;
}

/** Saves the session, or forgets it when null. Storage that is full or refused is not an error. */
export function saveInteractiveState(
  storage: KeyValueStorage,
  userId: string,
  mode: InteractiveMode,
  state: InteractiveState | null,
): void {
  writeStoredJson(storage, interactiveStorageKey(userId, mode), state, 'the interactive session');
}
