// Lookups by key that requests ask for in the same turn of the event loop, answered by one query
// (as DataLoader batches, without its cache: every answer is read from the database when asked).
// Under load many signed-in requests arrive in one turn, and each session lookup was a round trip
// of its own; on PostgreSQL that round trip (a write that wakes a server process, a result
// described and parsed) was most of what a signed-in read cost the service, and on PGlite each
// query pays its own turn and statement call. A lookup asked alone waits one turn (setImmediate).

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

/** Keys asked for at most per query: a longer backlog is answered in several. */
export const MAX_KEYS_PER_LOOKUP = 100;

export class LookupBatch<K, V> {
  /** The keys asked for since the last query, each with whoever waits for it. */
  private waiting = new Map<K, Waiter<V>[]>();

  /** `lookup` answers a list of distinct keys with the values found, by key (a key not found is absent). */
  constructor(private readonly lookup: (keys: K[]) => Promise<ReadonlyMap<K, V>>) {}

  /** The value for `key`, or undefined when there is none. */
  find(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) setImmediate(() => this.flush());
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
    });
  }

  private flush(): void {
    const batch = [...this.waiting];
    this.waiting = new Map();
    for (let at = 0; at < batch.length; at += MAX_KEYS_PER_LOOKUP) {
      void this.answer(batch.slice(at, at + MAX_KEYS_PER_LOOKUP));
    }
  }

  private async answer(batch: [K, Waiter<V>[]][]): Promise<void> {
    let found: ReadonlyMap<K, V>;
    try {
      found = await this.lookup(batch.map(([key]) => key));
    } catch (error) {
      for (const [, waiters] of batch) for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const [key, waiters] of batch) {
      const value = found.get(key);
      // Each caller gets a value of its own, as it would from a query of its own: the request
      // that asked second may change what it got without the first seeing it.
      for (const [i, waiter] of waiters.entries()) {
        waiter.resolve(i === 0 || value === undefined ? value : structuredClone(value));
      }
    }
  }
}
