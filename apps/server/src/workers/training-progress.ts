// Saves a training's progress on its Voice, where the training page polls it: at every stage
// change and otherwise at most once a second, so a trainer that reports often costs the
// database little. The engine's estimate of the time left is kept as the moment it expects the
// run to end, so the time left shown keeps counting down between reports. It writes the
// training's events too (services/training-events.ts): each stage's start and every
// PROGRESS_EVENT_PERCENT of the run.
import type { VoiceProgress } from '@ownvoice/engine';
import { PROGRESS_EVENT_PERCENT } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { TrainingEventLog } from '../services/training-events.js';

const PROGRESS_WRITE_MS = 1000;

export function progressSaver(
  voices: VoicesRepository,
  voiceId: string,
  clock: Clock,
  log: { error(obj: unknown, msg?: string): void },
  events?: Pick<TrainingEventLog, 'record'>,
): (progress: VoiceProgress) => void {
  let lastWrite = 0;
  let lastStage = '';
  let lastEventStage = '';
  let lastEventPart = -1;
  return (p) => {
    const now = clock.now().getTime();
    const estimatedDoneAt = p.etaSeconds !== undefined ? new Date(now + Math.ceil(p.etaSeconds * 1000)) : null;
    // Every report is looked at for events, before the database's write is thinned out.
    const part = Math.floor(p.percent / PROGRESS_EVENT_PERCENT);
    if (events && (p.stage !== lastEventStage || part > lastEventPart)) {
      lastEventStage = p.stage;
      lastEventPart = part;
      // Not awaited either; record() never throws.
      void events.record(
        voiceId,
        { stage: p.stage, message: p.message, step: p.step, totalSteps: p.totalSteps, estimatedDoneAt },
        { whileTraining: true },
      );
    }
    if (p.stage === lastStage && now - lastWrite < PROGRESS_WRITE_MS) return;
    lastStage = p.stage;
    lastWrite = now;
    // Not awaited: the trainer does not wait on the database; a lost write is followed by the next.
    void voices
      .transition(voiceId, ['training'], {
        stage: p.stage,
        // 100 is kept for the Voice that is ready.
        progress: Math.min(99, Math.floor(p.percent)),
        statusMessage: p.message,
        estimatedDoneAt,
      })
      .catch((error: unknown) => log.error(error, 'could not save training progress'));
  };
}
