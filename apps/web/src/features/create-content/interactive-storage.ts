// The interactive session kept in the browser: one per user
// and mode, so a reload resumes where it was. What comes back is checked against the session
// schema; anything that does not pass (old, edited, another app's) is dropped.
import { type InteractiveMode, type InteractiveState, interactiveStateSchema } from '@ownvoice/shared';
import type { KeyValueStorage } from '../../lib/session/browser-storage';

export const interactiveStorageKey = (userId: string, mode: InteractiveMode): string =>
  `ownvoice.interactive.${userId}.${mode}`;

/** The saved session of this user and mode, or null (nothing saved, or it did not pass). */
export function loadInteractiveState(
  storage: KeyValueStorage,
  userId: string,
  mode: InteractiveMode,
): InteractiveState | null {
  const key = interactiveStorageKey(userId, mode);
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const parsed = interactiveStateSchema.safeParse(json);
  // A session saved under one mode and claiming another is not this mode's session.
  if (!parsed.success || parsed.data.mode !== mode) {
    try {
      storage.removeItem(key);
    } catch {
      // Storage that refuses: nothing to clean.
    }
    return null;
  }
  return parsed.data;
}

/** Saves the session, or forgets it when null. Storage that is full or refused is not an error. */
export function saveInteractiveState(
  storage: KeyValueStorage,
  userId: string,
  mode: InteractiveMode,
  state: InteractiveState | null,
): void {
  const key = interactiveStorageKey(userId, mode);
  try {
    if (state === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(state));
  } catch (error) {
    console.warn('Could not keep the interactive session', error);
  }
}
