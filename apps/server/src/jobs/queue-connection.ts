// pg-boss's connection to the database, ours rather than its own, so that stopping the queue
// lets every write it began land first. pg-boss 10.4's worker marks a job done without awaiting
// it (src/manager.js: `watch` → `onFetch` → `this.complete(...)`, and `this.fail(...)`), so its
// own stop() could close the pool, and a test its database, while that write was still on the
// wire: the write then failed as an unhandled rejection.
import pg from 'pg';

export class QueueConnection {
  private readonly pool: pg.Pool;
  /** Each query under way, settled (never rejecting), so close() can wait for them all. */
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(connectionString: string, onError: (error: Error) => void) {
    this.pool = new pg.Pool({ connectionString, max: 3, application_name: 'ownvoice-jobs' });
    this.pool.on('error', onError);
  }

  /** pg-boss's one call (its `Db` interface). */
  executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    // After close, what pg-boss's own connection does: no query, no result (pg-boss reads that as
    // nothing affected).
    if (this.closed) return Promise.resolve(undefined as unknown as pg.QueryResult);
    const query = this.pool.query(text, values);
    const settled = query.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return query;
  }

  /** Waits for the queries under way (and any they lead to), then ends the pool. */
  async close(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.closed = true;
    await this.pool.end();
  }
}
