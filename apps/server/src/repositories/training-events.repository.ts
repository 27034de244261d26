// A training's events (db/schema.ts `trainingEvents`), in the order written; each Voice keeps its
// latest TRAINING_EVENTS_KEPT.
import { TRAINING_EVENTS_KEPT } from '@ownvoice/shared';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type TrainingEventRow, trainingEvents, voices } from '../db/schema.js';

export type NewTrainingEvent = Omit<typeof trainingEvents.$inferInsert, 'seq'>;

export class TrainingEventsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds one for a Voice that exists, then drops its events older than the latest
   * TRAINING_EVENTS_KEPT. With `whileTraining`, only while the Voice is queued or training, in the
   * same statement: a report the trainer sends after its Voice was cancelled would come after the
   * end, and is dropped.
   */
  async add(row: NewTrainingEvent, { whileTraining = false }: { whileTraining?: boolean } = {}): Promise<void> {
    // Raw: drizzle's insert…select wants every column, the generated `seq` included.
    const onlyWhileTraining = whileTraining ? sql`and ${voices.status} in ('pending', 'training')` : sql``;
    await this.db.execute(sql`
      insert into ${trainingEvents}
        (id, voice_id, created_at, level, stage, step, total_steps, message, estimated_done_at)
      select ${row.id}, ${voices.id}, ${row.createdAt.toISOString()}::timestamptz, ${row.level}, ${row.stage},
        ${row.step ?? null}::integer, ${row.totalSteps ?? null}::integer, ${row.message},
        ${row.estimatedDoneAt?.toISOString() ?? null}::timestamptz
      from ${voices} where ${voices.id} = ${row.voiceId} ${onlyWhileTraining}`);
    await this.prune(row.voiceId);
  }

  /** The bound is the seq of the event KEPT back from the newest; with fewer, nothing goes. */
  private async prune(voiceId: string): Promise<void> {
    await this.db.delete(trainingEvents).where(
      and(
        eq(trainingEvents.voiceId, voiceId),
        lt(
          trainingEvents.seq,
          sql`(select ${trainingEvents.seq} from ${trainingEvents} where ${trainingEvents.voiceId} = ${voiceId}
                 order by ${trainingEvents.seq} desc offset ${TRAINING_EVENTS_KEPT - 1} limit 1)`,
        ),
      ),
    );
  }

  /** The Voice's events, oldest first. */
  async list(voiceId: string): Promise<TrainingEventRow[]> {
    return this.db
      .select()
      .from(trainingEvents)
      .where(eq(trainingEvents.voiceId, voiceId))
      .orderBy(asc(trainingEvents.seq));
  }
}
