// Payment-provider events already handled. Recording one is the first write of the transaction
// that applies it: a second delivery (or one racing it) finds the id taken and changes nothing.
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { billingEvents, type UserRow, users } from '../db/schema.js';

export class BillingEventsRepository {
  constructor(private readonly db: Database) {}

  /** Records the event in the caller's transaction; false when it was handled before. */
  async claim(tx: Database, event: { id: string; type: string; created: Date }): Promise<boolean> {
    const rows = await tx
      .insert(billingEvents)
      .values({ id: event.id, type: event.type, createdAt: event.created })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    return rows.length === 1;
  }

  /** Users whose trial began at or before `startedBy`: their minimum plan is due. */
  async trialsStartedBy(startedBy: Date): Promise<UserRow[]> {
    return this.db
      .select()
      .from(users)
      .where(and(eq(users.planName, 'trial'), isNotNull(users.trialStartedAt), lte(users.trialStartedAt, startedBy)));
  }
}
