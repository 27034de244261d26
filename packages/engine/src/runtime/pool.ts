// A first-come, first-served pool of reusable items (a context's sequences): requests beyond
// the pool's size wait their turn in order instead of failing.
export class Pool<T> {
  private readonly free: T[];
  private readonly waiting: ((item: T) => void)[] = [];

  constructor(items: T[]) {
    this.free = [...items];
  }

  /** Resolves with an item and its release function; a waiting request honours `signal`. */
  async acquire(signal?: AbortSignal): Promise<{ item: T; release: () => void }> {
    signal?.throwIfAborted();
    const ready = this.free.shift();
    const item =
      ready !== undefined
        ? ready
        : await new Promise<T>((resolve, reject) => {
            const turn = (next: T) => {
              signal?.removeEventListener('abort', onAbort);
              resolve(next);
            };
            const onAbort = () => {
              const i = this.waiting.indexOf(turn);
              if (i >= 0) this.waiting.splice(i, 1);
              reject(signal?.reason ?? new Error('aborted'));
            };
            signal?.addEventListener('abort', onAbort, { once: true });
            this.waiting.push(turn);
          });
    let released = false;
    return {
      item,
      release: () => {
        if (released) return;
        released = true;
        const next = this.waiting.shift();
        if (next) next(item);
        else this.free.push(item);
      },
    };
  }

  get queued(): number {
    return this.waiting.length;
  }
}
