// What the offline provider keeps in place of Stripe: its checkouts and subscriptions.
import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import {
  type OfflineCheckoutRow,
  type OfflineSubscriptionRow,
  offlineCheckouts,
  offlineSubscriptions,
} from '../db/schema.js';

export class OfflineBillingRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the checkout, or answers the one made before with the same idempotency key. */
  async insertCheckout(row: typeof offlineCheckouts.$inferInsert): Promise<OfflineCheckoutRow> {
    await this.db.insert(offlineCheckouts).values(row).onConflictDoNothing({ target: offlineCheckouts.idempotencyKey });
    const [stored] = await this.db
      .select()
      .from(offlineCheckouts)
      .where(eq(offlineCheckouts.idempotencyKey, row.idempotencyKey));
    if (!stored) throw new Error('The checkout was not stored.');
    return stored;
  }

  async findCheckout(id: string): Promise<OfflineCheckoutRow | undefined> {
    const [row] = await this.db.select().from(offlineCheckouts).where(eq(offlineCheckouts.id, id));
    return row;
  }

  /** Moves an open checkout to `status`; answers false when it was no longer open (paid or cancelled already). */
  async closeCheckout(id: string, status: 'complete' | 'canceled'): Promise<boolean> {
    const rows = await this.db
      .update(offlineCheckouts)
      .set({ status })
      .where(and(eq(offlineCheckouts.id, id), eq(offlineCheckouts.status, 'open')))
      .returning({ id: offlineCheckouts.id });
    return rows.length === 1;
  }

  /** Inserts the subscription, or answers the one made before with the same idempotency key. */
  async insertSubscription(
    row: typeof offlineSubscriptions.$inferInsert,
  ): Promise<{ subscription: OfflineSubscriptionRow; created: boolean }> {
    const inserted = await this.db
      .insert(offlineSubscriptions)
      .values(row)
      .onConflictDoNothing({ target: offlineSubscriptions.idempotencyKey })
      .returning();
    if (inserted[0]) return { subscription: inserted[0], created: true };
    const [stored] = await this.db
      .select()
      .from(offlineSubscriptions)
      .where(eq(offlineSubscriptions.idempotencyKey, row.idempotencyKey));
    if (!stored) throw new Error('The subscription was not stored.');
    return { subscription: stored, created: false };
  }

  async findSubscription(id: string): Promise<OfflineSubscriptionRow | undefined> {
    const [row] = await this.db.select().from(offlineSubscriptions).where(eq(offlineSubscriptions.id, id));
    return row;
  }

  async updateSubscription(
    id: string,
    patch: Partial<Omit<OfflineSubscriptionRow, 'id'>>,
  ): Promise<OfflineSubscriptionRow | undefined> {
    const [row] = await this.db
      .update(offlineSubscriptions)
      .set(patch)
      .where(eq(offlineSubscriptions.id, id))
      .returning();
    return row;
  }

  /** Active subscriptions whose period has ended by `now`. */
  async dueForRenewal(now: Date): Promise<OfflineSubscriptionRow[]> {
    return this.db
      .select()
      .from(offlineSubscriptions)
      .where(and(eq(offlineSubscriptions.status, 'active'), lte(offlineSubscriptions.currentPeriodEnd, now)));
  }
}
