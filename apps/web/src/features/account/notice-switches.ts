// The e-mail notices card: one switch per shared notice, in the shared order, the required ones
// always on; what a change sends (the switchable notices now off); and saving so that only the
// latest choice is sent once the one on its way is answered, however fast the switches flip.
import { NOTICES, type NoticeKey, SWITCHABLE_NOTICE_KEYS } from '@ownvoice/shared';

export interface NoticeSwitch {
  key: NoticeKey;
  label: string;
  description: string;
  /** Always sent: shown on and cannot be switched. */
  required: boolean;
  on: boolean;
}

export const NOTICE_MESSAGES = {
  saving: 'Saving…',
  saveFailed: 'Could not save that change; your notice settings are as they were. Please try again.',
} as const;

export function noticeSwitches(muted: readonly string[]): NoticeSwitch[] {
  const off = new Set(muted);
  return NOTICES.map(({ key, label, description, required }) => ({
    key,
    label,
    description,
    required,
    on: required || !off.has(key),
  }));
}

/** The switchable notices off once `key` is switched `on` or off, in the shared order. */
export function mutedAfter(muted: readonly string[], key: string, on: boolean): string[] {
  const off = new Set(muted);
  if (on) off.delete(key);
  else off.add(key);
  return SWITCHABLE_NOTICE_KEYS.filter((k) => off.has(k));
}

/**
 * Wraps `save` so one call runs at a time: a value pushed while one is saving replaces any other
 * waiting value, and is saved next. Every push resolves (or rejects) with the whole run.
 */
export function latestOnly<T>(save: (value: T) => Promise<unknown>): (value: T) => Promise<void> {
  let waiting: { value: T } | null = null;
  let running: Promise<void> | null = null;

  const drain = async () => {
    try {
      while (waiting) {
        const { value } = waiting;
        waiting = null;
        await save(value);
      }
    } catch (error) {
      waiting = null;
      throw error;
    } finally {
      running = null;
    }
  };

  return (value: T) => {
    waiting = { value };
    running ??= drain();
    return running;
  };
}
