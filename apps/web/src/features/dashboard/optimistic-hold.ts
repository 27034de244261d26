// Optimistic display: a clicked Wake Up, Sleep or Rename shows at once and holds for up
// to 45 s while the server still reports the old value; once the server reports anything else, or
// the hold runs out, the server's value shows again.
import { VOICE_TIMINGS, type Voice, type VoiceStatus } from '@ownvoice/shared';

/** A value shown in place of the server's, while the server still says `from`. */
export interface HeldValue<T> {
  value: T;
  from: T;
  since: number;
}

export interface VoiceOverride {
  status?: HeldValue<VoiceStatus>;
  name?: HeldValue<string>;
}

/** Overrides by Voice id. */
export type VoiceOverrides = Readonly<Record<string, VoiceOverride>>;

const HOLD_MS = VOICE_TIMINGS.optimisticHoldMs;

export function isHolding<T>(server: T, held: HeldValue<T> | undefined, now: number): held is HeldValue<T> {
  return held !== undefined && server === held.from && now - held.since < HOLD_MS;
}

/** The Voices as the dashboard shows them: the server's list with the holding overrides on top. */
export function applyOverrides(voices: readonly Voice[], overrides: VoiceOverrides, now: number): Voice[] {
  return voices.map((voice) => {
    const override = overrides[voice._id];
    if (!override) return voice;
    const status = isHolding(voice.status, override.status, now) ? override.status.value : voice.status;
    const name = isHolding(voice.name, override.name, now) ? override.name.value : voice.name;
    return status === voice.status && name === voice.name ? voice : { ...voice, status, name };
  });
}

/**
 * Drops what no longer holds: the server moved on, the hold ran out, or the Voice is gone.
 * Returns the same object when nothing changed, so a state update with it re-renders nothing.
 */
export function pruneOverrides(overrides: VoiceOverrides, voices: readonly Voice[], now: number): VoiceOverrides {
  const byId = new Map(voices.map((voice) => [voice._id, voice]));
  let changed = false;
  const next: Record<string, VoiceOverride> = {};
  for (const [id, override] of Object.entries(overrides)) {
    const voice = byId.get(id);
    const kept: VoiceOverride = {};
    if (voice && isHolding(voice.status, override.status, now)) kept.status = override.status;
    if (voice && isHolding(voice.name, override.name, now)) kept.name = override.name;
    if (kept.status === undefined && kept.name === undefined) {
      changed = true;
      continue;
    }
    if (kept.status !== override.status || kept.name !== override.name) changed = true;
    next[id] = kept;
  }
  return changed ? next : overrides;
}

/** When the next hold runs out, so the page can redraw then; null when nothing is held. */
export function nextHoldExpiry(overrides: VoiceOverrides): number | null {
  let earliest: number | null = null;
  for (const override of Object.values(overrides)) {
    for (const held of [override.status, override.name]) {
      if (held && (earliest === null || held.since + HOLD_MS < earliest)) earliest = held.since + HOLD_MS;
    }
  }
  return earliest;
}

/** Adds or replaces one held field of one Voice. */
export function holdField<K extends keyof VoiceOverride>(
  overrides: VoiceOverrides,
  id: string,
  field: K,
  held: NonNullable<VoiceOverride[K]>,
): VoiceOverrides {
  return { ...overrides, [id]: { ...overrides[id], [field]: held } };
}

/** Removes one held field of one Voice (a failed call reverts it). */
export function releaseField(overrides: VoiceOverrides, id: string, field: keyof VoiceOverride): VoiceOverrides {
  const override = overrides[id];
  if (!override || override[field] === undefined) return overrides;
  const rest: VoiceOverride = { ...override };
  delete rest[field];
  const next: Record<string, VoiceOverride> = { ...overrides };
  if (rest.status === undefined && rest.name === undefined) delete next[id];
  else next[id] = rest;
  return next;
}
