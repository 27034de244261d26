// What every factory needs: the database to insert into and the service clock that dates the
// rows. A service test context and an HTTP test context both have them.
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';

export interface RowTarget {
  database: { db: Database };
  clock: Clock;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The one row an insert answered, or an error saying which table gave none. */
export function inserted<T>(rows: T[], table: string): T {
  const [row] = rows;
  if (!row) throw new Error(`no ${table} row inserted`);
  return row;
}
