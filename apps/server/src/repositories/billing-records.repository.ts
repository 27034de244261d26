// What billing remembers about accounts beyond their row: the subscriptions each met and whether
// it was adopted or rejected, the customers of deleted accounts, and who had a trial.
import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { billingSubscriptions, deletedCustomers, trialClaims } from '../db/schema.js';

export type SubscriptionDecision = (typeof billingSubscriptions.$inferSelect)['decision'];

export class BillingRecordsRepository {
  constructor(private readonly db: Database) {}

  async decisionOn(tx: Database, subscriptionId: string): Promise<SubscriptionDecision | null> {
    const [row] = await tx
      .select({ decision: billingSubscriptions.decision })
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.id, subscriptionId));
    return row?.decision ?? null;
  }

  async decide(tx: Database, row: typeof billingSubscriptions.$inferInsert): Promise<void> {
    await tx.insert(billingSubscriptions).values(row).onConflictDoNothing();
  }

  async rememberDeleted(tx: Database, userId: string, customerId: string | null, at: Date): Promise<void> {
    await tx.insert(deletedCustomers).values({ userId, customerId, deletedAt: at }).onConflictDoNothing();
  }

  /** The deleted account a user id or provider customer belonged to, if one was deleted. */
  async deleted(
    by: { userId?: string | null; customerId?: string | null },
    db: Database = this.db,
  ): Promise<string | null> {
    const where = by.userId
      ? eq(deletedCustomers.userId, by.userId)
      : by.customerId
        ? eq(deletedCustomers.customerId, by.customerId)
        : null;
    if (!where) return null;
    const [row] = await db.select({ userId: deletedCustomers.userId }).from(deletedCustomers).where(where);
    return row?.userId ?? null;
  }

  /** Which of these trial keys were claimed before. */
  async claimedTrialKeys(keys: readonly string[], db: Database = this.db): Promise<string[]> {
    if (!keys.length) return [];
    const rows = await db
      .select({ key: trialClaims.key })
      .from(trialClaims)
      .where(inArray(trialClaims.key, [...keys]));
    return rows.map((row) => row.key);
  }

  async claimTrial(tx: Database, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length)
      await tx
        .insert(trialClaims)
        .values(keys.map((key) => ({ key, claimedAt: at })))
        .onConflictDoNothing();
  }
}
