// A training its owner follows and stops (by session, or by a key with the 'training' scope).
// Cancelling ends the Voice failed, as a failed training does: the training spent is given back
// (money rule: nothing is charged for a Voice that did not come out). The worker that holds the
// job sees the Voice leave 'training' at its next lease renewal and stops (workers/).
import type { TrainingEvent, Voice } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { JobQueueHost } from '../jobs/job-queue.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { workKey } from '../storage/voice-files.js';
import type { TrainingEventLog } from './training-events.js';
import type { UsageService } from './usage.service.js';
import { managedVoice } from './voice-access.js';
import { toVoiceView } from './voices.service.js';

/** What a cancelled Voice's card says. */
export const TRAINING_CANCELLED_MESSAGE = 'Training was cancelled.';

export class TrainingControlService {
  constructor(
    private readonly voices: VoicesRepository,
    private readonly usage: Pick<UsageService, 'refund'>,
    private readonly storage: ArtifactStorage,
    private readonly jobs: JobQueueHost,
    private readonly clock: Clock,
    private readonly log: { error(obj: unknown, msg?: string): void },
    private readonly events: TrainingEventLog,
  ) {}

  /** The training's events, oldest first: the owner's alone (their key's with 'voices:read' or 'training'). */
  async listEvents(user: UserRow, id: string): Promise<TrainingEvent[]> {
    const voice = await managedVoice(this.voices, user, id, 'Only the owner of this Voice can follow its training.');
    return this.events.list(voice.id);
  }

  /** Stops the Voice's training; 409 VOICE_NOT_TRAINING when it is not queued or training. */
  async cancel(user: UserRow, id: string): Promise<Voice> {
    const voice = await managedVoice(this.voices, user, id, 'Only the owner of this Voice can cancel its training.');
    // The guarded move is the one decision: a worker finishing or failing it at the same moment
    // moves it from 'training' too, so exactly one of them wins and refunds at most once.
    const cancelled = await this.voices.transition(voice.id, ['pending', 'training'], {
      status: 'failed',
      stage: null,
      estimatedDoneAt: null,
      leaseUntil: null,
      statusMessage: TRAINING_CANCELLED_MESSAGE,
    });
    if (!cancelled) {
      const now = await this.voices.findById(voice.id);
      if (!now) throw errors.notFound('Voice');
      throw errors.voiceNotTraining(now.status);
    }
    await this.usage.refund(voice.userId, 'modelsTrained', 1);
    await this.events.record(voice.id, { stage: 'cancelled', level: 'warn', message: TRAINING_CANCELLED_MESSAGE });
    await this.stopJob(cancelled.pipelineId);
    await this.storage.remove(workKey(voice.id));
    return toVoiceView(cancelled, user, this.clock.now());
  }

  /** A queued job is cancelled so no worker takes it; a running one stops at its next renewal. */
  private async stopJob(jobId: string | null): Promise<void> {
    if (!jobId) return;
    try {
      await (await this.jobs.get()).cancelTraining(jobId);
    } catch (error) {
      // The Voice is failed already: a worker that still takes the job finds it so and skips it.
      this.log.error(error, `could not cancel training job ${jobId}`);
    }
  }
}
