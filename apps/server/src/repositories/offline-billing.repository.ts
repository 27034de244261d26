// What the offline provider keeps in place of Stripe: customers and their test cards, checkouts,
// subscriptions, invoices, payments, and the events it has still to deliver.
import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import {
  type OfflineCheckoutRow,
  type OfflineCustomerRow,
  type OfflineInvoiceRow,
  type OfflinePaymentRow,
  type OfflineSubscriptionRow,
  offlineCheckouts,
  offlineCustomers,
  offlineEvents,
  offlineInvoices,
  offlinePayments,
  offlineSubscriptions,
} from '../db/schema.js';

type Patch<T> = Partial<Omit<T, 'id'>>;

export class OfflineBillingRepository {
  constructor(private readonly db: Database) {}

  // --- Customers ---

  async insertCustomer(row: typeof offlineCustomers.$inferInsert): Promise<void> {
    await this.db.insert(offlineCustomers).values(row);
  }

  async findCustomer(id: string): Promise<OfflineCustomerRow | undefined> {
    const [row] = await this.db.select().from(offlineCustomers).where(eq(offlineCustomers.id, id));
    return row;
  }

  async updateCustomer(id: string, patch: Patch<OfflineCustomerRow>): Promise<void> {
    await this.db.update(offlineCustomers).set(patch).where(eq(offlineCustomers.id, id));
  }

  // --- Checkouts ---

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

  async findCheckoutBySetupIntent(setupIntentId: string): Promise<OfflineCheckoutRow | undefined> {
    const [row] = await this.db
      .select()
      .from(offlineCheckouts)
      .where(eq(offlineCheckouts.setupIntentId, setupIntentId));
    return row;
  }

  /** Moves an open checkout on; answers the row when it was still open, undefined when not. */
  async closeCheckout(id: string, patch: Patch<OfflineCheckoutRow>): Promise<OfflineCheckoutRow | undefined> {
    const [row] = await this.db
      .update(offlineCheckouts)
      .set(patch)
      .where(and(eq(offlineCheckouts.id, id), eq(offlineCheckouts.status, 'open')))
      .returning();
    return row;
  }

  async updateCheckout(id: string, patch: Patch<OfflineCheckoutRow>): Promise<OfflineCheckoutRow | undefined> {
    const [row] = await this.db.update(offlineCheckouts).set(patch).where(eq(offlineCheckouts.id, id)).returning();
    return row;
  }

  openCheckouts(customerId: string): Promise<OfflineCheckoutRow[]> {
    return this.db
      .select()
      .from(offlineCheckouts)
      .where(and(eq(offlineCheckouts.customerId, customerId), eq(offlineCheckouts.status, 'open')));
  }

  expiredBy(now: Date): Promise<OfflineCheckoutRow[]> {
    return this.db
      .select()
      .from(offlineCheckouts)
      .where(and(eq(offlineCheckouts.status, 'open'), lte(offlineCheckouts.expiresAt, now)));
  }

  completedSince(since: Date): Promise<OfflineCheckoutRow[]> {
    return this.db
      .select()
      .from(offlineCheckouts)
      .where(and(eq(offlineCheckouts.status, 'complete'), gte(offlineCheckouts.createdAt, since)));
  }

  // --- Subscriptions ---

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
    patch: Patch<OfflineSubscriptionRow>,
  ): Promise<OfflineSubscriptionRow | undefined> {
    const [row] = await this.db
      .update(offlineSubscriptions)
      .set(patch)
      .where(eq(offlineSubscriptions.id, id))
      .returning();
    return row;
  }

  /** Updates the subscription only while its status is one of `statuses`. */
  async updateSubscriptionIn(
    id: string,
    statuses: OfflineSubscriptionRow['status'][],
    patch: Patch<OfflineSubscriptionRow>,
  ): Promise<OfflineSubscriptionRow | undefined> {
    const [row] = await this.db
      .update(offlineSubscriptions)
      .set(patch)
      .where(and(eq(offlineSubscriptions.id, id), inArray(offlineSubscriptions.status, statuses)))
      .returning();
    return row;
  }

  liveSubscriptions(customerId: string): Promise<OfflineSubscriptionRow[]> {
    return this.db
      .select()
      .from(offlineSubscriptions)
      .where(
        and(
          eq(offlineSubscriptions.customerId, customerId),
          inArray(offlineSubscriptions.status, ['active', 'past_due', 'incomplete']),
        ),
      );
  }

  /** Subscriptions whose period has ended by `now` and that still run. */
  dueForRenewal(now: Date): Promise<OfflineSubscriptionRow[]> {
    return this.db
      .select()
      .from(offlineSubscriptions)
      .where(
        and(
          inArray(offlineSubscriptions.status, ['active', 'past_due']),
          lte(offlineSubscriptions.currentPeriodEnd, now),
        ),
      );
  }

  /** Subscriptions whose first payment was never made, created by `createdBy`. */
  incompleteSince(createdBy: Date): Promise<OfflineSubscriptionRow[]> {
    return this.db
      .select()
      .from(offlineSubscriptions)
      .where(and(eq(offlineSubscriptions.status, 'incomplete'), lte(offlineSubscriptions.createdAt, createdBy)));
  }

  // --- Invoices and payments ---

  async insertInvoice(row: typeof offlineInvoices.$inferInsert): Promise<void> {
    await this.db.insert(offlineInvoices).values(row);
  }

  async findInvoice(id: string): Promise<OfflineInvoiceRow | undefined> {
    const [row] = await this.db.select().from(offlineInvoices).where(eq(offlineInvoices.id, id));
    return row;
  }

  /** Moves an open invoice on; answers the row when it was still open. */
  async updateOpenInvoice(id: string, patch: Patch<OfflineInvoiceRow>): Promise<OfflineInvoiceRow | undefined> {
    const [row] = await this.db
      .update(offlineInvoices)
      .set(patch)
      .where(and(eq(offlineInvoices.id, id), eq(offlineInvoices.status, 'open')))
      .returning();
    return row;
  }

  async voidOpenInvoices(subscriptionId: string): Promise<void> {
    await this.db
      .update(offlineInvoices)
      .set({ status: 'void', nextAttemptAt: null })
      .where(and(eq(offlineInvoices.subscriptionId, subscriptionId), eq(offlineInvoices.status, 'open')));
  }

  /** Open invoices whose next automatic try is due. */
  retriesDue(now: Date): Promise<OfflineInvoiceRow[]> {
    return this.db
      .select()
      .from(offlineInvoices)
      .where(and(eq(offlineInvoices.status, 'open'), lte(offlineInvoices.nextAttemptAt, now)));
  }

  paidInvoicesSince(since: Date): Promise<OfflineInvoiceRow[]> {
    return this.db
      .select()
      .from(offlineInvoices)
      .where(and(eq(offlineInvoices.status, 'paid'), gte(offlineInvoices.paidAt, since)));
  }

  async insertPayment(row: typeof offlinePayments.$inferInsert): Promise<void> {
    await this.db.insert(offlinePayments).values(row);
  }

  async findPayment(id: string): Promise<OfflinePaymentRow | undefined> {
    const [row] = await this.db.select().from(offlinePayments).where(eq(offlinePayments.id, id));
    return row;
  }

  paymentsOf(customerId: string): Promise<OfflinePaymentRow[]> {
    return this.db.select().from(offlinePayments).where(eq(offlinePayments.customerId, customerId));
  }

  async updatePayment(id: string, patch: Patch<OfflinePaymentRow>): Promise<void> {
    await this.db.update(offlinePayments).set(patch).where(eq(offlinePayments.id, id));
  }

  // --- Events to deliver ---

  async insertEvent(row: { id: string; payload: string; nextAttemptAt: Date }): Promise<void> {
    await this.db.insert(offlineEvents).values(row);
  }

  /** Undelivered events due for a try, oldest first. */
  pendingEvents(now: Date) {
    return this.db
      .select()
      .from(offlineEvents)
      .where(and(isNull(offlineEvents.deliveredAt), lte(offlineEvents.nextAttemptAt, now)))
      .orderBy(asc(offlineEvents.seq));
  }

  async eventDelivered(id: string, at: Date): Promise<void> {
    await this.db.update(offlineEvents).set({ deliveredAt: at, lastError: null }).where(eq(offlineEvents.id, id));
  }

  async eventFailed(id: string, attempts: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.db
      .update(offlineEvents)
      .set({ attempts, nextAttemptAt, lastError: error })
      .where(eq(offlineEvents.id, id));
  }
}
