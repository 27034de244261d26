// The e-mail log (db/schema.ts mail_messages): what was queued, sent or failed.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type MailMessageRow, mailMessages } from '../db/schema.js';

export class MailRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof mailMessages.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(mailMessages).values(row);
  }

  async find(id: string): Promise<MailMessageRow | undefined> {
    const [row] = await this.db.select().from(mailMessages).where(eq(mailMessages.id, id));
    return row;
  }

  /** Counts an attempt; answers the attempts made so far, or null when the message is gone or sent. */
  async countAttempt(id: string): Promise<number | null> {
    const [row] = await this.db
      .update(mailMessages)
      .set({ attempts: sql`${mailMessages.attempts} + 1` })
      .where(and(eq(mailMessages.id, id), eq(mailMessages.status, 'queued')))
      .returning({ attempts: mailMessages.attempts });
    return row?.attempts ?? null;
  }

  async markSent(id: string, at: Date): Promise<void> {
    await this.db
      .update(mailMessages)
      .set({ status: 'sent', sentAt: at, lastError: null })
      .where(eq(mailMessages.id, id));
  }

  /** Records why an attempt failed; `final` gives up on the message. */
  async markFailure(id: string, error: string, final: boolean): Promise<void> {
    await this.db
      .update(mailMessages)
      .set({ lastError: error.slice(0, 500), ...(final ? { status: 'failed' as const } : {}) })
      .where(eq(mailMessages.id, id));
  }

  /** Messages not yet sent nor given up, oldest first. */
  async waitingIds(): Promise<string[]> {
    const rows = await this.db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(eq(mailMessages.status, 'queued'))
      .orderBy(mailMessages.createdAt);
    return rows.map((row) => row.id);
  }

  /** The newest messages, for the admin console. */
  async latest(limit: number): Promise<MailMessageRow[]> {
    return this.db.select().from(mailMessages).orderBy(desc(mailMessages.createdAt)).limit(limit);
  }

  /** How many messages were given up on. */
  async countFailed(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.status, 'failed'));
    return row?.n ?? 0;
  }

  /**
   * A failed message back to queued, its attempts and error reset, for the mail worker to try
   * again; answers it, or undefined when it is gone or not failed (so of two retries one counts).
   */
  async retry(id: string, db: Database = this.db): Promise<MailMessageRow | undefined> {
    const [row] = await db
      .update(mailMessages)
      .set({ status: 'queued', attempts: 0, lastError: null })
      .where(and(eq(mailMessages.id, id), eq(mailMessages.status, 'failed')))
      .returning();
    return row;
  }
}
