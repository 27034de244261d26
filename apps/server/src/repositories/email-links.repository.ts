// Links that confirm an address (db/schema.ts email_links): a sign-up's ('verify') or a new
// address's ('change'), found by the hash of their token.
import { and, count, eq, gt, isNull, min } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type EmailLinkRow, emailLinks } from '../db/schema.js';

export type EmailLinkPurpose = EmailLinkRow['purpose'];

export class EmailLinksRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof emailLinks.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(emailLinks).values(row);
  }

  async findByTokenHash(tokenHash: string, db: Database = this.db): Promise<EmailLinkRow | undefined> {
    const [row] = await db.select().from(emailLinks).where(eq(emailLinks.tokenHash, tokenHash)).limit(1);
    return row;
  }

  /** Uses the link if it is still unused; false when another request used it first. */
  async use(id: string, at: Date, db: Database = this.db): Promise<boolean> {
    const used = await db
      .update(emailLinks)
      .set({ usedAt: at })
      .where(and(eq(emailLinks.id, id), isNull(emailLinks.usedAt)))
      .returning({ id: emailLinks.id });
    return used.length === 1;
  }

  /** Every unused link of this person for `purpose` stops working (a newer one replaces them, or one was used). */
  async useAllFor(userId: string, purpose: EmailLinkPurpose, at: Date, db: Database = this.db): Promise<void> {
    await db
      .update(emailLinks)
      .set({ usedAt: at })
      .where(and(eq(emailLinks.userId, userId), eq(emailLinks.purpose, purpose), isNull(emailLinks.usedAt)));
  }

  /** Links of either purpose made for this person since `since` (a cap on how many mails they cause). */
  async countSince(userId: string, since: Date, db: Database = this.db): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(emailLinks)
      .where(and(eq(emailLinks.userId, userId), gt(emailLinks.createdAt, since)));
    return row?.n ?? 0;
  }

  /** When the oldest of the links counted by `countSince` was made (the cap lifts an hour after it). */
  async oldestSince(userId: string, since: Date, db: Database = this.db): Promise<Date | null> {
    const [row] = await db
      .select({ at: min(emailLinks.createdAt) })
      .from(emailLinks)
      .where(and(eq(emailLinks.userId, userId), gt(emailLinks.createdAt, since)));
    return row?.at ?? null;
  }
}
