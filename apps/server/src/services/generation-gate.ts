// How much model work one person may hold at once. Each conversion, Quick Create stream and
// interactive step takes a slot for as long as it runs; past the limit the request is refused
// with a 429 before any work, so one account cannot hold the model's cores from everyone else.
import { AppError } from '../errors.js';
import { Slots } from '../slots.js';

export interface GenerationLimits {
  /** Streams and interactive steps one person may run at once. */
  perUser: number;
  /** Edit-pass requests one person may run at once (the page sends at most 3). */
  editsPerUser: number;
  /** A stream whose reader stops reading is paused, and ended after this long without progress. */
  stallMs: number;
}

export const DEFAULT_GENERATION_LIMITS: GenerationLimits = { perUser: 3, editsPerUser: 3, stallMs: 30_000 };

export type GenerationKind = 'stream' | 'edit';

export class GenerationGate {
  private readonly slots = new Slots();

  constructor(readonly limits: GenerationLimits = { ...DEFAULT_GENERATION_LIMITS }) {}

  /** Takes one of the person's slots; returns its release (safe to call twice), or throws the 429. */
  enter(userId: string, kind: GenerationKind = 'stream'): () => void {
    const key = `${kind}:${userId}`;
    const release = this.slots.tryTake(key, kind === 'edit' ? this.limits.editsPerUser : this.limits.perUser);
    if (release) return release;
    const count = this.slots.count(key);
    throw new AppError(
      429,
      'RATE_LIMITED',
      kind === 'edit'
        ? `You already have ${count} proofreads running. Wait for them to finish, then try again.`
        : `You already have ${count} conversions or drafts running, the most at once. Wait for one to finish or stop it, then try again.`,
    );
  }
}
