// Money received (db/billing-schema.ts payments): one row per paid invoice or checkout, written in
// the transaction that grants it, updated by refunds and disputes. Rows are never deleted.
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type PaymentRow, payments } from '../db/schema.js';

export class PaymentsRepository {
  constructor(private readonly db: Database) {}

  /** Records a payment once: a second record of the same id changes nothing and answers false. */
  async record(tx: Database, row: typeof payments.$inferInsert): Promise<boolean> {
    const inserted = await tx.insert(payments).values(row).onConflictDoNothing().returning({ id: payments.id });
    return inserted.length === 1;
  }

  async find(id: string, db: Database = this.db): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row;
  }

  async findByPaymentIntent(paymentIntentId: string, db: Database = this.db): Promise<PaymentRow | undefined> {
    const [row] = await db.select().from(payments).where(eq(payments.paymentIntentId, paymentIntentId));
    return row;
  }

  async update(
    tx: Database,
    id: string,
    patch: Partial<Pick<PaymentRow, 'refundedCents' | 'disputeStatus'>>,
  ): Promise<void> {
    await tx.update(payments).set(patch).where(eq(payments.id, id));
  }

  /** A user's payments, newest first. */
  listForUser(userId: string, limit: number): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.paidAt))
      .limit(limit);
  }
}
