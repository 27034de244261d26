// Reads and writes of the voices table.
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { type UserRow, users, type VoiceRow, voices } from '../db/schema.js';

/** The Voice list, the dashboard's most frequent read. */
const byOwner = preparedQuery((db) =>
  db
    .select()
    .from(voices)
    .where(eq(voices.userId, sql.placeholder('userId')))
    .orderBy(desc(voices.createdAt))
    .prepare('ov_voices_by_owner'),
);

export type NewVoice = Pick<VoiceRow, 'id' | 'userId' | 'name'> & Partial<VoiceRow>;

export class VoicesRepository {
  constructor(
    private readonly db: Database,
    /** The time rows are stamped with: the services' clock, so tests that move it stay consistent. */
    private readonly clock: Clock,
  ) {}

  async findById(id: string): Promise<VoiceRow | undefined> {
    const [row] = await this.db.select().from(voices).where(eq(voices.id, id)).limit(1);
    return row;
  }

  /** The Voice's row, held (shared) for the caller's transaction: a delete waits for it. */
  async lockForShare(tx: Database, id: string): Promise<VoiceRow | undefined> {
    const [row] = await tx.select().from(voices).where(eq(voices.id, id)).for('share');
    return row;
  }

  listByOwner(userId: string): Promise<VoiceRow[]> {
    return byOwner(this.db).execute({ userId });
  }

  /** Every fork's id and adapter key. */
  async listForks(): Promise<{ id: string; adapterKey: string | null }[]> {
    return this.db
      .select({ id: voices.id, adapterKey: voices.adapterKey })
      .from(voices)
      .where(isNotNull(voices.forkedFromId));
  }

  /** Voices whose base model was not recorded and whose adapter's files have not been asked which it was. */
  async listUnknownBase(): Promise<{ id: string; adapterKey: string }[]> {
    const rows = await this.db
      .select({ id: voices.id, adapterKey: voices.adapterKey })
      .from(voices)
      .where(and(eq(voices.baseModelState, 'unknown'), isNull(voices.baseModelFile), isNotNull(voices.adapterKey)));
    return rows.map((r) => ({ id: r.id, adapterKey: r.adapterKey as string }));
  }

  /** The model file an unknown-base Voice's adapter names, kept once (the row is not otherwise touched). */
  async recallBaseFile(id: string, file: string): Promise<void> {
    await this.db
      .update(voices)
      .set({ baseModelFile: file })
      .where(and(eq(voices.id, id), eq(voices.baseModelState, 'unknown'), isNull(voices.baseModelFile)));
  }

  /** Public Voices with their owners' usernames. */
  async listPublic(): Promise<(VoiceRow & { ownerName: UserRow['username'] })[]> {
    const rows = await this.db
      .select({ voice: voices, ownerName: users.username })
      .from(voices)
      .innerJoin(users, eq(users.id, voices.userId))
      .where(eq(voices.isPublic, true))
      .orderBy(desc(voices.createdAt));
    return rows.map((r) => ({ ...r.voice, ownerName: r.ownerName }));
  }

  async countByOwner(userId: string, db: Database = this.db): Promise<number> {
    const [row] = await db.select({ n: count() }).from(voices).where(eq(voices.userId, userId));
    return row?.n ?? 0;
  }

  listByStatus(statuses: VoiceRow['status'][]): Promise<VoiceRow[]> {
    return this.db.select().from(voices).where(inArray(voices.status, statuses));
  }

  /** Awake Voices placed on an inference endpoint. */
  listOnEndpoint(endpointId: string): Promise<VoiceRow[]> {
    return this.db
      .select()
      .from(voices)
      .where(and(eq(voices.inferenceEndpoint, endpointId), inArray(voices.status, ['active', 'activating'])));
  }

  /** How many awake Voices each inference endpoint holds, for placing the next one. */
  async placements(): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ endpoint: voices.inferenceEndpoint, voices: count() })
      .from(voices)
      .where(and(isNotNull(voices.inferenceEndpoint), inArray(voices.status, ['active', 'activating'])))
      .groupBy(voices.inferenceEndpoint);
    return new Map(rows.map((r) => [r.endpoint as string, r.voices]));
  }

  /**
   * Trainings whose worker is gone: its lease ran out before `now`, or there is no lease and the
   * row has not moved since `staleBefore` (a worker that died while handing the job back).
   */
  listLapsedTrainings(now: Date, staleBefore: Date): Promise<VoiceRow[]> {
    return this.db
      .select()
      .from(voices)
      .where(
        and(
          eq(voices.status, 'training'),
          or(
            and(isNotNull(voices.leaseUntil), lt(voices.leaseUntil, now)),
            and(isNull(voices.leaseUntil), lt(voices.updatedAt, staleBefore)),
          ),
        ),
      );
  }

  async insert(voice: NewVoice, db: Database = this.db): Promise<VoiceRow> {
    const [row] = await db.insert(voices).values(voice).returning();
    if (!row) throw new Error('insert into voices returned no row');
    return row;
  }

  async update(id: string, patch: Partial<Omit<VoiceRow, 'id' | 'userId'>>): Promise<VoiceRow | undefined> {
    const [row] = await this.db
      .update(voices)
      .set({ ...patch, updatedAt: this.clock.now() })
      .where(eq(voices.id, id))
      .returning();
    return row;
  }

  /** Updates only while the Voice is in one of `from`: state changes never overwrite a newer one. */
  async transition(
    id: string,
    from: VoiceRow['status'][],
    patch: Partial<Omit<VoiceRow, 'id' | 'userId'>>,
  ): Promise<VoiceRow | undefined> {
    const [row] = await this.db
      .update(voices)
      .set({ ...patch, updatedAt: this.clock.now() })
      .where(and(eq(voices.id, id), inArray(voices.status, from)))
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
