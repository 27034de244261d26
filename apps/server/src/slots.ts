// Things held at once, counted per key up to a limit: uploads being received, generations running.
// Taking one returns its release, safe to call more than once (error paths and `finally` may both).
export class Slots {
  private readonly held = new Map<string, number>();

  /** How many `key` holds now. */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** Takes one for `key` while it holds fewer than `limit`; undefined when it is full. */
  tryTake(key: string, limit: number): (() => void) | undefined {
    const count = this.count(key);
    if (count >= limit) return undefined;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.count(key) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }
}
