// What must still be done at the payment provider (db/billing-schema.ts billingActions): written
// in the transaction of the decision that needs it, done after it and retried until it succeeds.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type BillingActionRow, billingActions } from '../db/schema.js';
import { newId } from '../ids.js';

export type BillingActionKind = BillingActionRow['kind'];

export class BillingActionsRepository {
  constructor(private readonly db: Database) {}

  /** Adds an action once per kind and target; a second request for the same one changes nothing. */
  async add(
    tx: Database,
    action: {
      userId: string | null;
      kind: BillingActionKind;
      target: string;
      amountCents?: number | null;
      reason: string;
    },
    now: Date,
  ): Promise<void> {
    await tx
      .insert(billingActions)
      .values({ id: newId(now), amountCents: null, ...action, createdAt: now })
      .onConflictDoNothing();
  }

  /** Pending actions, oldest first; of one account when `userId` is given. */
  pending(userId?: string | null): Promise<BillingActionRow[]> {
    return this.db
      .select()
      .from(billingActions)
      .where(and(eq(billingActions.status, 'pending'), ...(userId ? [eq(billingActions.userId, userId)] : [])))
      .orderBy(asc(billingActions.createdAt));
  }

  async done(id: string, at: Date): Promise<void> {
    await this.db
      .update(billingActions)
      .set({ status: 'done', doneAt: at, lastError: null })
      .where(eq(billingActions.id, id));
  }

  async failed(id: string, error: string): Promise<void> {
    await this.db
      .update(billingActions)
      .set({ attempts: sql`${billingActions.attempts} + 1`, lastError: error })
      .where(eq(billingActions.id, id));
  }
}
