// Admin invitations (db/schema.ts invitations), found by the hash of their link's token.
import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type InvitationRow, invitations, type UserRow, users } from '../db/schema.js';

const PENDING_LISTED = 100;

/** Not used, not revoked (expiry is checked against the service clock). */
const waiting = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export interface PendingInvitationRow {
  invitation: InvitationRow;
  inviter: { id: string; username: string } | null;
}

export class InvitationsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof invitations.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(invitations).values(row);
  }

  async findByTokenHash(tokenHash: string, db: Database = this.db): Promise<InvitationRow | undefined> {
    const [row] = await db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash));
    return row;
  }

  async findById(id: string, db: Database = this.db): Promise<InvitationRow | undefined> {
    const [row] = await db.select().from(invitations).where(eq(invitations.id, id));
    return row;
  }

  /** The invitations waiting at `now`, newest first, with who sent them. */
  async listPending(now: Date): Promise<PendingInvitationRow[]> {
    return this.db
      .select({ invitation: invitations, inviter: { id: users.id, username: users.username } })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(waiting, gt(invitations.expiresAt, now)))
      .orderBy(desc(invitations.createdAt))
      .limit(PENDING_LISTED);
  }

  /** Marks the invitation used; false when it was used or revoked first. */
  async claim(tx: Database, id: string, userId: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(invitations)
      .set({ acceptedAt: at, acceptedBy: userId })
      .where(and(eq(invitations.id, id), waiting))
      .returning({ id: invitations.id });
    return rows.length > 0;
  }

  /** Revokes one waiting invitation; false when it was no longer waiting. */
  async revoke(tx: Database, id: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(invitations)
      .set({ revokedAt: at })
      .where(and(eq(invitations.id, id), waiting))
      .returning({ id: invitations.id });
    return rows.length > 0;
  }

  /** Revokes the waiting invitations `inviterId` sent for one of `roles`; answers how many. */
  async revokeSentBy(tx: Database, inviterId: string, roles: InvitationRow['role'][], at: Date): Promise<number> {
    if (roles.length === 0) return 0;
    const rows = await tx
      .update(invitations)
      .set({ revokedAt: at })
      .where(and(eq(invitations.invitedBy, inviterId), inArray(invitations.role, roles), waiting))
      .returning({ id: invitations.id });
    return rows.length;
  }

  /**
   * With an account: the invitations sent to its address or accepted by it (they name the
   * person), and those it sent that still wait (they die with their inviter).
   */
  async deleteFor(user: Pick<UserRow, 'id' | 'email'>, db: Database = this.db): Promise<void> {
    await db
      .delete(invitations)
      .where(
        or(
          eq(invitations.email, user.email),
          eq(invitations.acceptedBy, user.id),
          and(eq(invitations.invitedBy, user.id), isNull(invitations.acceptedAt)),
        ),
      );
  }
}
