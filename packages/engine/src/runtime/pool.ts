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

/** Runs the tasks of each key one after another, in the order they came; keys run side by side. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return next;
  }
}
