// JSON kept in the browser's storage (local or the tab's) under one key, read back only through
// a schema: whatever does not pass (old, edited, another app's, not JSON) is removed and reads as
// nothing. A storage that refuses or is full loses only the keeping.
import type { ZodType } from 'zod';
import type { KeyValueStorage } from './browser-storage';

/** The value under `key` if it passes `schema`, else null (and a value that failed is removed). */
export function readStoredJson<T>(storage: KeyValueStorage | null, key: string, schema: ZodType<T>): T | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(key) ?? null;
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
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  removeStored(storage, key);
  return null;
}

/** Keeps `value` under `key`, or removes it when null; `what` names it in the console's warning. */
export function writeStoredJson(storage: KeyValueStorage | null, key: string, value: unknown, what: string): void {
  try {
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, JSON.stringify(value));
  } catch (error) {
    console.warn(`Could not keep ${what}`, error);
  }
}

export function removeStored(storage: KeyValueStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Storage that refuses: nothing to clean.
  }
}
