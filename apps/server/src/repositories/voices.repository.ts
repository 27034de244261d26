// Reads and writes of the voices table.
import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type VoiceRow, voices } from '../db/schema.js';

export type NewVoice = Pick<VoiceRow, 'id' | 'userId' | 'name'> & Partial<VoiceRow>;

export class VoicesRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<VoiceRow | undefined> {
    const [row] = await this.db.select().from(voices).where(eq(voices.id, id)).limit(1);
    return row;
  }

  listByOwner(userId: string): Promise<VoiceRow[]> {
    return this.db.select().from(voices).where(eq(voices.userId, userId)).orderBy(desc(voices.createdAt));
  }

  listPublic(): Promise<VoiceRow[]> {
    return this.db.select().from(voices).where(eq(voices.isPublic, true)).orderBy(desc(voices.createdAt));
  }

  async countByOwner(userId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(voices).where(eq(voices.userId, userId));
    return row?.n ?? 0;
  }

  async insert(voice: NewVoice): Promise<VoiceRow> {
    const [row] = await this.db.insert(voices).values(voice).returning();
    if (!row) throw new Error('insert into voices returned no row');
    return row;
  }

  async update(id: string, patch: Partial<Omit<VoiceRow, 'id' | 'userId'>>): Promise<VoiceRow | undefined> {
    const [row] = await this.db
      .update(voices)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(voices.id, id))
      .returning();
    return row;
  }

  async deleteOwned(id: string, userId: string): Promise<boolean> {
    const rows = await this.db
      .delete(voices)
      .where(and(eq(voices.id, id), eq(voices.userId, userId)))
      .returning({ id: voices.id });
    return rows.length > 0;
  }
}
