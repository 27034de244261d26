// Webhooks (decision 46): an account's endpoints, told by a signed POST when one of its Voices'
// trainings ends. Endpoints are the signed-in browser's to add (with the password again, as API
// keys are), list and remove. Each event to each endpoint is a delivery row and a pg-boss job;
// an attempt that fails is tried again on RETRY_DELAYS_S, and the owner reads the log and replays.
import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  createWebhookRequestSchema,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOKS_MAX,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow, WebhookDeliveryRow, WebhookEndpointRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { JobQueueHost } from '../jobs/job-queue.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { WebhooksRepository } from '../repositories/webhooks.repository.js';
import type { SecretBox } from '../security/secret-box.js';
import type { SessionContext } from './sessions.service.js';
import type { StepUpService } from './step-up.service.js';
import { webhookSignature } from './webhook-signature.js';
import { checkWebhookTarget } from './webhook-target.js';

/** Seconds to wait after each failed attempt: 1 min, 5 min, 30 min, 2 h, 8 h (six attempts in all). */
export const RETRY_DELAYS_S = [60, 300, 1800, 7200, 28_800] as const;
/** How long an endpoint has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Characters of the secret shown in the list (prefix included). */
const SHOWN_CHARS = 12;
/** Of an endpoint's answer, what the log keeps when it refused. */
const ERROR_CHARS = 300;

export interface WebhooksOptions {
  allowPrivate: boolean;
  log: { error(obj: unknown, msg?: string): void };
}

export const endpointView = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events,
  shown: `${row.shown}…`,
  createdAt: row.createdAt.toISOString(),
});

export const deliveryView = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  eventId: row.eventId,
  type: row.type,
  createdAt: row.createdAt.toISOString(),
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  lastError: row.lastError,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
});

/** The training's ending each event tells of, by the stage a training event records. */
const EVENT_OF_ENDING = {
  succeeded: 'voice.training.succeeded',
  failed: 'voice.training.failed',
  cancelled: 'voice.training.cancelled',
} as const satisfies Record<string, WebhookEventType>;
export type TrainingEnding = keyof typeof EVENT_OF_ENDING;

/** What webhooks work with, by name. */
export interface WebhooksServiceDeps {
  db: Database;
  webhooks: WebhooksRepository;
  users: UsersRepository;
  voices: VoicesRepository;
  /** Adding an endpoint asks for the password (or a code) again. */
  stepUp: Pick<StepUpService, 'confirmPassword'>;
  /** Seals each endpoint's signing secret at rest. */
  box: SecretBox;
  jobs: JobQueueHost;
  clock: Clock;
  options: WebhooksOptions;
}

export class WebhooksService {
  private readonly db: Database;
  private readonly webhooks: WebhooksRepository;
  private readonly users: UsersRepository;
  private readonly voices: VoicesRepository;
  private readonly stepUp: Pick<StepUpService, 'confirmPassword'>;
  private readonly box: SecretBox;
  private readonly jobs: JobQueueHost;
  private readonly clock: Clock;
  private readonly options: WebhooksOptions;

  constructor({ db, webhooks, users, voices, stepUp, box, jobs, clock, options }: WebhooksServiceDeps) {
    this.db = db;
    this.webhooks = webhooks;
    this.users = users;
    this.voices = voices;
    this.stepUp = stepUp;
    this.box = box;
    this.jobs = jobs;
    this.clock = clock;
    this.options = options;
  }

  // ---- Endpoints: the signed-in browser's -------------------------------------------------

  async create(auth: SessionContext, request: CreateWebhookRequest): Promise<CreatedWebhook> {
    const { user } = auth;
    const input = createWebhookRequestSchema.parse(request);
    if (!user.emailVerifiedAt) throw errors.emailNotVerified(user.email);
    await this.stepUp.confirmPassword(auth, input, 'Wrong password or code to add a webhook');
    const url = (await checkWebhookTarget(input.url, this.options.allowPrivate)).toString();
    const secret = `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
    const row = await this.db.transaction(async (tx) => {
      // Under the user's row lock: two requests at once cannot both take the last place.
      await this.users.lockById(tx, user.id);
      if ((await this.webhooks.countEndpoints(user.id, tx)) >= WEBHOOKS_MAX) {
        throw errors.webhooksFull(WEBHOOKS_MAX);
      }
      const now = this.clock.now();
      return this.webhooks.insertEndpoint(
        {
          id: newId(now),
          userId: user.id,
          url,
          events: input.events,
          secretSealed: this.box.seal(secret),
          shown: secret.slice(0, SHOWN_CHARS),
          createdAt: now,
        },
        tx,
      );
    });
    return { webhook: endpointView(row), secret };
  }

  async list(user: UserRow): Promise<WebhookEndpoint[]> {
    return (await this.webhooks.listEndpoints(user.id)).map(endpointView);
  }

  async remove(user: UserRow, id: string): Promise<void> {
    if (!(await this.webhooks.deleteEndpoint(user.id, id))) throw errors.notFound('Webhook');
  }

  async deliveries(user: UserRow, id: string): Promise<WebhookDelivery[]> {
    const endpoint = await this.webhooks.findEndpoint(user.id, id);
    if (!endpoint) throw errors.notFound('Webhook');
    return (await this.webhooks.listDeliveries(endpoint.id)).map(deliveryView);
  }

  /** Sends a delivery again now, with a fresh round of attempts. */
  async replay(user: UserRow, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const found = await this.webhooks.findDelivery(deliveryId);
    if (!found || found.endpoint.id !== id || found.endpoint.userId !== user.id) throw errors.notFound('Delivery');
    const row = await this.webhooks.updateDelivery(deliveryId, {
      attempts: 0,
      deliveredAt: null,
      nextAttemptAt: this.clock.now(),
    });
    await this.schedule(row.id, 0);
    return deliveryView(row);
  }

  // ---- Events and deliveries ----------------------------------------------------------------

  /**
   * A Voice's training ended: a delivery to each of its owner's endpoints that asked for it.
   * Never fails the training: a delivery that cannot be queued is logged.
   */
  async trainingEnded(voiceId: string, ending: TrainingEnding): Promise<void> {
    try {
      const voice = await this.voices.findById(voiceId);
      if (!voice) return;
      const type = EVENT_OF_ENDING[ending];
      const endpoints = await this.webhooks.listSubscribed(voice.userId, type);
      if (endpoints.length === 0) return;
      const now = this.clock.now();
      const event: WebhookEvent = {
        id: `evt_${newId(now)}`,
        type,
        createdAt: now.toISOString(),
        data: { voice: { id: voice.id, name: voice.name, status: voice.status } },
      };
      const body = JSON.stringify(event);
      for (const endpoint of endpoints) {
        const delivery = await this.webhooks.insertDelivery({
          id: newId(now),
          endpointId: endpoint.id,
          eventId: event.id,
          type,
          body,
          createdAt: now,
          nextAttemptAt: now,
        });
        await this.schedule(delivery.id, 0);
      }
    } catch (error) {
      this.options.log.error(error, `could not queue the webhooks of Voice ${voiceId}`);
    }
  }

  /**
   * One attempt (the webhook job's handler): POSTs the body signed now; a 2xx answer delivers it,
   * anything else is tried again after the next of RETRY_DELAYS_S, until WEBHOOK_MAX_ATTEMPTS.
   */
  async deliver(deliveryId: string): Promise<void> {
    const found = await this.webhooks.findDelivery(deliveryId);
    // Gone with its endpoint, delivered already, or given up: nothing to do.
    if (!found || found.delivery.deliveredAt || found.delivery.nextAttemptAt === null) return;
    const { delivery, endpoint } = found;
    const attempts = delivery.attempts + 1;
    const outcome = await this.post(endpoint, delivery.body);
    const now = this.clock.now();
    if (outcome.ok) {
      await this.webhooks.updateDelivery(delivery.id, {
        attempts,
        lastStatus: outcome.status,
        lastError: null,
        nextAttemptAt: null,
        deliveredAt: now,
      });
      return;
    }
    const delay = attempts < WEBHOOK_MAX_ATTEMPTS ? RETRY_DELAYS_S[attempts - 1] : undefined;
    await this.webhooks.updateDelivery(delivery.id, {
      attempts,
      lastStatus: outcome.status ?? null,
      lastError: outcome.error,
      nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay * 1000),
    });
    if (delay !== undefined) await this.schedule(delivery.id, delay);
  }

  private async post(
    endpoint: WebhookEndpointRow,
    body: string,
  ): Promise<{ ok: true; status: number } | { ok: false; status?: number; error: string }> {
    try {
      // Again at each attempt: the name may resolve elsewhere by now.
      const url = await checkWebhookTarget(endpoint.url, this.options.allowPrivate);
      const secret = this.box.open(endpoint.secretSealed);
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'OwnVoice-Webhooks/1',
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, body, this.clock.now()),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const text = (await res.text().catch(() => '')).slice(0, ERROR_CHARS);
      if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
      return { ok: false, status: res.status, error: `The endpoint answered ${res.status}${text ? `: ${text}` : ''}` };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      const message = timedOut
        ? `The endpoint did not answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : error instanceof Error
          ? error.message
          : String(error);
      return { ok: false, error: message.slice(0, ERROR_CHARS) };
    }
  }

  private async schedule(deliveryId: string, afterSeconds: number): Promise<void> {
    await (await this.jobs.get()).enqueueWebhook(deliveryId, afterSeconds);
  }
}
