// Admin invitations (db/schema.ts invitations), found by the hash of their link's token.
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type InvitationRow, invitations, type UserRow } from '../db/schema.js';

export class InvitationsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof invitations.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(invitations).values(row);
  }

  async findByTokenHash(tokenHash: string, db: Database = this.db): Promise<InvitationRow | undefined> {
    const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
    return row;
  }

  /** Marks the invitation used; false when someone used it first. */
  async claim(tx: Database, id: string, userId: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(invitations)
      .set({ acceptedAt: at, acceptedBy: userId })
      .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    return rows.length > 0;
  }

  /** With an account: the invitations sent to its address or accepted by it (they name the person). */
  async deleteFor(user: Pick<UserRow, 'id' | 'email'>, db: Database = this.db): Promise<void> {
    await db.delete(invitations).where(or(eq(invitations.email, user.email), eq(invitations.acceptedBy, user.id)));
  }
}
