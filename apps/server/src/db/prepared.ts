// Prepared queries for the per-request reads. Drizzle otherwise builds a query's SQL anew on every
// call (a large share of a signed-in read's CPU); a prepared query keeps the SQL and fills in
// placeholders, and on PostgreSQL node-postgres also keeps the parsed statement on each
// connection under the query's name. A prepared query belongs to the db object that made it, so
// each is made on first use per db object (one per database in tests, which open many).
import type { Database } from './client.js';

/**
 * Wraps `make` (which ends in `.prepare(name)`, with `sql.placeholder(...)` for the values) so
 * that it runs once per db object. Names must be unique per SQL text: PostgreSQL refuses a second
 * statement of the same name on a connection.
 */
export function preparedQuery<Q>(make: (db: Database) => Q): (db: Database) => Q {
  const made = new WeakMap<Database, Q>();
  return (db) => {
    let query = made.get(db);
    if (query === undefined) {
      query = make(db);
      made.set(db, query);
    }
    return query;
  };
}
