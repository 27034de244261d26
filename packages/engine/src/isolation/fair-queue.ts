// Turns at a shared resource of fixed capacity (the extraction processes), given fairly between
// owners (accounts). A plain first-come queue lets whoever sends many slow files first make
// everyone else wait behind all of them; here each free turn goes to the waiting owner who holds
// the fewest turns now, and among equals to the one served longest ago (never, for a newcomer).
// An owner's own requests keep their order. So a person with one file waits at most for one
// running turn to end, however many files others have queued.

export class FairQueue {
  /** Turns held now, per owner. */
  private readonly held = new Map<string, number>();
  /** Waiting requests per owner, in order. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** When each owner holding or awaiting a turn was last given one (a count of turns given). */
  private readonly lastServed = new Map<string, number>();
  private given = 0;
  private inUse = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  /** Turns held now, in all. */
  get busy(): number {
    return this.inUse;
  }

  /** Requests waiting now, in all. */
  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Waits for a turn for `owner`; answers its release (safe to call more than once). */
  async take(owner: string): Promise<() => void> {
    if (this.inUse < this.capacity && this.waiting.size === 0) {
      this.start(owner);
    } else {
      await new Promise<void>((resolve) => {
        const list = this.waiting.get(owner);
        if (list) list.push(resolve);
        else this.waiting.set(owner, [resolve]);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(owner) ?? 1) - 1;
      if (left > 0) this.held.set(owner, left);
      else this.held.delete(owner);
      // Forgotten once it holds and awaits nothing: the maps stay as small as the queue.
      if (left <= 0 && !this.waiting.has(owner)) this.lastServed.delete(owner);
      this.inUse--;
      this.serve();
    };
  }

  private start(owner: string): void {
    this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
    this.lastServed.set(owner, ++this.given);
    this.inUse++;
  }

  /** Gives free turns to waiting owners: fewest held first, then served longest ago. */
  private serve(): void {
    while (this.inUse < this.capacity && this.waiting.size > 0) {
      let next: string | undefined;
      let best: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
      for (const owner of this.waiting.keys()) {
        const rank: [number, number] = [this.held.get(owner) ?? 0, this.lastServed.get(owner) ?? 0];
        if (rank[0] < best[0] || (rank[0] === best[0] && rank[1] < best[1])) {
          best = rank;
          next = owner;
        }
      }
      if (next === undefined) return;
      const list = this.waiting.get(next) ?? [];
      const resolve = list.shift();
      if (list.length === 0) this.waiting.delete(next);
      this.start(next);
      resolve?.();
    }
  }
}
