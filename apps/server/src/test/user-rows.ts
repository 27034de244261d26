// Counts the rows that belong to a user in every table with a user_id column, found from the
// schema itself: a table added later is counted without anyone remembering to list it here.
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.js';
import type { TestContext } from './test-app.js';

const ownedTables: { table: PgTable; userId: PgColumn }[] = (Object.values(schema) as unknown[]).flatMap((value) => {
  if (!(value instanceof PgTable)) return [];
  const columns: Record<string, PgColumn> = getTableColumns(value);
  const userId = columns.userId;
  return userId ? [{ table: value, userId }] : [];
});

/** Per table name, how many rows name `userId` (the users table by its id). */
export async function rowsOfUser(ctx: TestContext, userId: string): Promise<Record<string, number>> {
  const { db } = ctx.database;
  const counts: Record<string, number> = {};
  const tables: [PgTable, SQL][] = [
    [schema.users, sql`${schema.users.id} = ${userId}`],
    ...ownedTables.map(({ table, userId: column }): [PgTable, SQL] => [table, sql`${column} = ${userId}`]),
  ];
  for (const [table, where] of tables) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(table)
      .where(where);
    counts[getTableName(table)] = row?.n ?? 0;
  }
  return counts;
}
