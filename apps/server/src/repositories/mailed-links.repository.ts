// Links mailed to an address a request chose (db/schema.ts mailed_links), by the SHA-256 of the
// address: how many went there lately, whichever account asked.
import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { mailedLinks } from '../db/schema.js';

export class MailedLinksRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof mailedLinks.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(mailedLinks).values(row);
  }

  /** Links mailed to the address since `since`, and when the oldest of them went (null for none). */
  async since(addressHash: string, since: Date, db: Database = this.db): Promise<{ n: number; oldest: Date | null }> {
    const [row] = await db
      .select({ n: count(), oldest: min(mailedLinks.sentAt) })
      .from(mailedLinks)
      .where(and(eq(mailedLinks.addressHash, addressHash), gt(mailedLinks.sentAt, since)));
    return { n: row?.n ?? 0, oldest: row?.oldest ?? null };
  }

  /** Forgets every link mailed before `before`. */
  async purge(before: Date, db: Database = this.db): Promise<void> {
    await db.delete(mailedLinks).where(lt(mailedLinks.sentAt, before));
  }
}
