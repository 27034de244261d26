// The training queue on pg-boss: jobs live in the service's own database (PostgreSQL, or PGlite
// through its socket server), so any number of worker processes on any machines can share them.
import PgBoss from 'pg-boss';
import { QueueConnection } from './queue-connection.js';

export const TRAINING_QUEUE = 'voice-training';
/** Billing's scheduled work (trials that end, offline renewals), once a minute across all servers. */
export const BILLING_TICK_QUEUE = 'billing-tick';
/** E-mail to deliver: one job per message, retried with backoff while the mail server fails. */
export const MAIL_QUEUE = 'mail-send';
/** Attempts per message, the first included; then it is marked failed for the admins. */
export const MAIL_MAX_ATTEMPTS = 5;

/** Webhook deliveries: one job per attempt, each scheduled by the delivery's own backoff. */
export const WEBHOOK_QUEUE = 'webhook-deliver';

export interface WebhookJobData {
  deliveryId: string;
}

export interface MailJobData {
  mailId: string;
}

export interface TrainingJobData {
  voiceId: string;
}

export interface TrainingJob {
  id: string;
  data: TrainingJobData;
}

/** How long pg-boss lets a training job run before it counts it lost (its most is 24 hours). */
export const TRAINING_EXPIRE_SECONDS = 23 * 60 * 60;

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly connection: QueueConnection,
  ) {}

  static async start(connectionString: string, onError: (error: Error) => void): Promise<JobQueue> {
    const connection = new QueueConnection(connectionString, onError);
    // `schedule` runs pg-boss's cron: one server at a time turns billing's schedule into jobs.
    const boss = new PgBoss({ db: connection, schedule: true });
    boss.on('error', onError);
    await boss.start();
    const training = {
      // Retries are for interruptions (a stopped or lost worker); a training that fails on its
      // own merits ends the job as completed with the Voice marked failed.
      retryLimit: 20,
      retryDelay: 2,
      // A standard-preset training on CPU can take hours; pg-boss must not expire it meanwhile
      // (an expired job is retried while its first run goes on: two runs of one Voice). In
      // seconds: pg-boss 10.4's createQueue keeps only `expireInSeconds` and silently drops
      // expireInHours/Minutes (src/manager.js), which left trainings at its 15-minute default.
      expireInSeconds: TRAINING_EXPIRE_SECONDS,
    };
    await boss.createQueue(TRAINING_QUEUE, { name: TRAINING_QUEUE, ...training });
    // create_queue leaves a queue that exists as it was: one made by an earlier version is
    // brought to these settings here.
    await boss.updateQueue(TRAINING_QUEUE, { name: TRAINING_QUEUE, ...training });
    // One billing tick at a time: a slow one is never overlapped by the next minute's.
    await boss.createQueue(BILLING_TICK_QUEUE, { name: BILLING_TICK_QUEUE, policy: 'singleton', retryLimit: 0 });
    // 10 s, 20 s, 40 s, 80 s between attempts: a mail server that is down for a minute or two
    // loses nothing.
    await boss.createQueue(MAIL_QUEUE, {
      name: MAIL_QUEUE,
      retryLimit: MAIL_MAX_ATTEMPTS - 1,
      retryDelay: 10,
      retryBackoff: true,
    });
    // No retries of pg-boss's own: a failed attempt schedules the next (services/webhooks.service.ts).
    await boss.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, retryLimit: 0 });
    return new JobQueue(boss, connection);
  }

  /** Queues a training; the job id is the Voice's pipeline id, so sending it twice queues it once. */
  async enqueueTraining(voiceId: string, pipelineId: string): Promise<void> {
    await this.boss.send(TRAINING_QUEUE, { voiceId } satisfies TrainingJobData, { id: pipelineId });
  }

  /** Runs `handler` for each training job, one at a time. A throw sends the job back to retry. */
  async workTraining(handler: (job: TrainingJob) => Promise<void>, pollingIntervalSeconds = 2): Promise<void> {
    await this.boss.work<TrainingJobData>(TRAINING_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async (jobs) => {
      for (const job of jobs) await handler({ id: job.id, data: job.data });
    });
  }

  /** Runs `tick` every minute (stored in the database, so one schedule serves every server). */
  async scheduleBillingTick(tick: () => Promise<void>): Promise<void> {
    await this.boss.schedule(BILLING_TICK_QUEUE, '* * * * *');
    await this.boss.work(BILLING_TICK_QUEUE, { batchSize: 1 }, async () => {
      await tick();
    });
  }

  /**
   * Queues a stored message's delivery; its id is the job's, so queueing it twice sends it once.
   * A failed message sent again gets a job of its own (`jobId`), with its attempts afresh.
   */
  async enqueueMail(mailId: string, jobId: string = mailId): Promise<void> {
    await this.boss.send(MAIL_QUEUE, { mailId } satisfies MailJobData, { id: jobId });
  }

  /** Runs `deliver` for each message; a throw sends the job back to be retried later. */
  async workMail(deliver: (mailId: string) => Promise<void>, pollingIntervalSeconds = 2): Promise<void> {
    await this.boss.work<MailJobData>(MAIL_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async (jobs) => {
      for (const job of jobs) await deliver(job.data.mailId);
    });
  }

  /** Queues one attempt of a webhook delivery, `afterSeconds` from now. */
  async enqueueWebhook(deliveryId: string, afterSeconds: number): Promise<void> {
    await this.boss.send(WEBHOOK_QUEUE, { deliveryId } satisfies WebhookJobData, { startAfter: afterSeconds });
  }

  /** Runs `deliver` for each attempt; it schedules any next attempt itself. */
  async workWebhooks(deliver: (deliveryId: string) => Promise<void>, pollingIntervalSeconds = 2): Promise<void> {
    await this.boss.work<WebhookJobData>(WEBHOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async (jobs) => {
      for (const job of jobs) await deliver(job.data.deliveryId);
    });
  }

  /** Queues one billing tick now (tests; the schedule does it every minute). */
  async sendBillingTick(): Promise<string | null> {
    return this.boss.send(BILLING_TICK_QUEUE, {});
  }

  async stopWorking(): Promise<void> {
    await this.boss.offWork(TRAINING_QUEUE);
  }

  async state(jobId: string): Promise<JobState | undefined> {
    const job = await this.boss.getJobById(TRAINING_QUEUE, jobId, { includeArchive: true });
    return job?.state;
  }

  /** Cancels a training job (its owner cancelled it); a finished one stays as it is. */
  async cancelTraining(jobId: string): Promise<void> {
    await this.boss.cancel(TRAINING_QUEUE, jobId);
  }

  /** Sends an active job back to the queue (its worker is gone); retries pick it up. */
  async release(jobId: string, reason: string): Promise<void> {
    await this.boss.fail(TRAINING_QUEUE, jobId, { reason });
  }

  async stop(): Promise<void> {
    // Graceful: a job handler still finishing (a training handing itself back) completes its
    // queue writes before the connections close; then the writes pg-boss does not await.
    await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
    await this.connection.close();
  }
}

/** Starts the queue on first use, so requests that never train cost no queue at all. */
export class JobQueueHost {
  private queue: Promise<JobQueue> | undefined;

  constructor(
    private readonly connectionString: () => Promise<string>,
    private readonly onError: (error: Error) => void,
  ) {}

  get(): Promise<JobQueue> {
    this.queue ??= this.connectionString()
      .then((url) => JobQueue.start(url, this.onError))
      .catch((error: unknown) => {
        this.queue = undefined;
        throw error;
      });
    return this.queue;
  }

  async stop(): Promise<void> {
    const queue = await this.queue?.catch(() => undefined);
    this.queue = undefined;
    await queue?.stop();
  }
}
