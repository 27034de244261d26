// Payment-provider events already handled, and the reconciliations that look for missed ones.
// Recording an event is the first write of the transaction that applies it: a second delivery (or
// one racing it) finds the id taken and changes nothing.
import { and, desc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { billingEvents, billingReconciliations, type UserRow, users } from '../db/schema.js';

export type ReconciliationRow = typeof billingReconciliations.$inferSelect;

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

  async seen(id: string): Promise<boolean> {
    const [row] = await this.db.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, id));
    return row !== undefined;
  }

  /**
   * Users whose trial began at or before `startedBy` and whose minimum plan was not started yet:
   * one whose trial end was charged and declined has its (unpaid) subscription already.
   */
  async trialsStartedBy(startedBy: Date): Promise<UserRow[]> {
    return this.db
      .select()
      .from(users)
      .where(
        and(
          eq(users.planName, 'trial'),
          isNotNull(users.trialStartedAt),
          lte(users.trialStartedAt, startedBy),
          isNull(users.providerSubscriptionId),
        ),
      );
  }

  async startReconciliation(row: typeof billingReconciliations.$inferInsert): Promise<void> {
    await this.db.insert(billingReconciliations).values(row);
  }

  async finishReconciliation(
    id: string,
    patch: Pick<ReconciliationRow, 'finishedAt' | 'checked' | 'repaired' | 'error'>,
  ): Promise<void> {
    await this.db.update(billingReconciliations).set(patch).where(eq(billingReconciliations.id, id));
  }

  async lastReconciliation(): Promise<ReconciliationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(billingReconciliations)
      .orderBy(desc(billingReconciliations.startedAt))
      .limit(1);
    return row;
  }
}
