// Writes a training's events (shared training-events.ts) where its progress is reported: the
// queue, each stage, every PROGRESS_EVENT_PERCENT of the run, and the end. Recording never fails
// the training: a lost event is logged and the training goes on.
import type { TrainingEvent, TrainingEventLevel, TrainingEventStage } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { TrainingEventRow } from '../db/schema.js';
import { newId } from '../ids.js';
import type { TrainingEventsRepository } from '../repositories/training-events.repository.js';

export interface TrainingEventInput {
  stage: TrainingEventStage;
  message: string;
  level?: TrainingEventLevel;
  step?: number | undefined;
  totalSteps?: number | undefined;
  estimatedDoneAt?: Date | null | undefined;
}

export class TrainingEventLog {
  constructor(
    private readonly events: TrainingEventsRepository,
    private readonly clock: Clock,
    private readonly log: { error(obj: unknown, msg?: string): void },
    /** Told of each ending (the webhooks), after its event is written. */
    private readonly onEnd?: (voiceId: string, ending: 'succeeded' | 'failed' | 'cancelled') => Promise<void>,
  ) {}

  /** `whileTraining`: a progress report, dropped once the Voice has left training (cancelled). */
  async record(voiceId: string, event: TrainingEventInput, options: { whileTraining?: boolean } = {}): Promise<void> {
    const now = this.clock.now();
    try {
      await this.events.add(
        {
          id: newId(now),
          voiceId,
          createdAt: now,
          level: event.level ?? 'info',
          stage: event.stage,
          step: event.step ?? null,
          totalSteps: event.totalSteps ?? null,
          message: event.message,
          estimatedDoneAt: event.estimatedDoneAt ?? null,
        },
        options,
      );
    } catch (error) {
      this.log.error(error, `could not record a training event of Voice ${voiceId}`);
    }
    const { stage } = event;
    if (stage === 'succeeded' || stage === 'failed' || stage === 'cancelled') await this.onEnd?.(voiceId, stage);
  }

  async list(voiceId: string): Promise<TrainingEvent[]> {
    return (await this.events.list(voiceId)).map(trainingEventView);
  }
}

export const trainingEventView = (row: TrainingEventRow): TrainingEvent => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  level: row.level,
  stage: row.stage,
  ...(row.step !== null ? { step: row.step } : {}),
  ...(row.totalSteps !== null ? { totalSteps: row.totalSteps } : {}),
  message: row.message,
  ...(row.estimatedDoneAt ? { estimatedDoneAt: row.estimatedDoneAt.toISOString() } : {}),
});
