// The activity log (db/schema.ts activities): rows are added, read a page at a time, and removed
// only with the account they concern. A trigger refuses any update.
import type { ActivityKind } from '@ownvoice/shared';
import { and, count, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type ActivityRow, activities, users } from '../db/schema.js';

export type NewActivity = typeof activities.$inferInsert;

/** A row with the username of whoever acted, when that account still exists. */
export type ActivityWithActor = ActivityRow & { actorUsername: string | null };

export class ActivitiesRepository {
  constructor(private readonly db: Database) {}

  async append(row: NewActivity, db: Database = this.db): Promise<void> {
    await db.insert(activities).values(row);
  }

  /**
   * A page of the events about `userId`, and of what they did to others as an admin, newest first.
   */
  async page(
    userId: string,
    filter: { kinds?: readonly ActivityKind[] | undefined; offset: number; limit: number },
  ): Promise<{ rows: ActivityWithActor[]; total: number }> {
    const conditions: SQL[] = [];
    const mine = or(eq(activities.userId, userId), eq(activities.actorId, userId));
    if (mine) conditions.push(mine);
    if (filter.kinds) conditions.push(inArray(activities.kind, [...filter.kinds]));
    const where = and(...conditions);
    const [rows, [totalRow]] = await Promise.all([
      this.db
        .select({ activity: activities, actorUsername: users.username })
        .from(activities)
        .leftJoin(users, eq(users.id, activities.actorId))
        .where(where)
        .orderBy(desc(activities.seq))
        .offset(filter.offset)
        .limit(filter.limit),
      this.db.select({ n: count() }).from(activities).where(where),
    ]);
    return {
      rows: rows.map((r) => ({ ...r.activity, actorUsername: r.actorUsername })),
      total: totalRow?.n ?? 0,
    };
  }

  /** Everything about the account goes with it (the caller then records the deletion). */
  async deleteForUser(userId: string, db: Database = this.db): Promise<void> {
    await db.delete(activities).where(eq(activities.userId, userId));
  }
}
