// Counts of wrong passwords and codes per subject and source (db/schema.ts authFailures).
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type AuthFailureRow, authFailures } from '../db/schema.js';

export class AuthFailuresRepository {
  constructor(private readonly db: Database) {}

  async find(subject: string, sources: string[]): Promise<AuthFailureRow[]> {
    return this.db
      .select()
      .from(authFailures)
      .where(and(eq(authFailures.subject, subject), inArray(authFailures.source, sources)));
  }

  /**
   * One more failure of `source` on `subject`, at `now`; a count whose lock ran out (or that is
   * older than `staleBefore`) starts again at one. Answers the row as it is now.
   */
  async increment(subject: string, source: string, now: Date, staleBefore: Date): Promise<AuthFailureRow> {
    const [row] = await this.db
      .insert(authFailures)
      .values({ subject, source, failures: 1, lastFailedAt: now })
      .onConflictDoUpdate({
        target: [authFailures.subject, authFailures.source],
        set: {
          failures: sql`case when ${authFailures.lockedUntil} <= ${now} or ${authFailures.lastFailedAt} < ${staleBefore}
            then 1 else ${authFailures.failures} + 1 end`,
          lockedUntil: sql`case when ${authFailures.lockedUntil} <= ${now} then null else ${authFailures.lockedUntil} end`,
          lastFailedAt: now,
        },
      })
      .returning();
    if (!row) throw new Error('upsert into auth_failures returned no row');
    return row;
  }

  async lock(subject: string, source: string, until: Date): Promise<void> {
    await this.db
      .update(authFailures)
      .set({ lockedUntil: until, failures: 0 })
      .where(and(eq(authFailures.subject, subject), eq(authFailures.source, source)));
  }

  async clear(subject: string, source?: string): Promise<void> {
    await this.db
      .delete(authFailures)
      .where(
        source
          ? and(eq(authFailures.subject, subject), eq(authFailures.source, source))
          : eq(authFailures.subject, subject),
      );
  }

  /** Forgets counts with no failure since `before` and no lock still running. */
  async purge(before: Date, now: Date): Promise<void> {
    await this.db
      .delete(authFailures)
      .where(
        and(
          lt(authFailures.lastFailedAt, before),
          sql`(${authFailures.lockedUntil} is null or ${authFailures.lockedUntil} <= ${now})`,
        ),
      );
  }
}
