// A training's events, as OpenAI's fine-tuning job events are: what happened, newest last, for
// a program that follows a training by API (GET /api/loras/:id/training-events).
import { z } from 'zod';

/** The training's stages (the engine's), and how it ended. */
export const TRAINING_EVENT_STAGES = [
  'queued',
  'extract',
  'pairs',
  'train',
  'export',
  'evaluate',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type TrainingEventStage = (typeof TRAINING_EVENT_STAGES)[number];

export const TRAINING_EVENT_LEVELS = ['info', 'warn', 'error'] as const;
export type TrainingEventLevel = (typeof TRAINING_EVENT_LEVELS)[number];

/** A progress event at every this many percent of the run, besides each stage's first. */
export const PROGRESS_EVENT_PERCENT = 10;

/** Events kept per Voice: the oldest go first, so a long training keeps its latest. */
export const TRAINING_EVENTS_KEPT = 200;

export const trainingEventSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  level: z.enum(TRAINING_EVENT_LEVELS),
  stage: z.enum(TRAINING_EVENT_STAGES),
  /** The stage's units done and in all (pairs made, training steps), where it counts them. */
  step: z.number().int().optional(),
  totalSteps: z.number().int().optional(),
  message: z.string(),
  /** When the training was expected to end, as of this event. */
  estimatedDoneAt: z.iso.datetime().optional(),
});
export type TrainingEvent = z.infer<typeof trainingEventSchema>;

export const trainingEventsSchema = z.array(trainingEventSchema);
