// Waking and sleeping Voices, and metering awake time. Waking places the Voice's adapter on an
// inference endpoint, beside its resident base model (activating, then active, with the endpoint
// recorded on the row); sleeping unloads it (deactivating, then ready). Awake time is charged by
// the minute against waking hours; a Voice goes to sleep when its owner's hours run out and after
// an idle period.
//
// An endpoint that stops answering (its process killed, its machine gone) has its Voices loaded
// again on another one, or on itself once it is back (the embedded process restarts within
// seconds); the time they could not be used is not charged. Voices that cannot be placed again
// go to sleep with a message saying so.
//
// An endpoint that answers but no longer holds a Voice (unloaded behind this server's back) is
// found at the next metering round, at a wake, or by a generation that fails on it: the Voice is
// loaded again, and awake time is charged only up to when it was last seen loaded.
//
// A Voice wakes only on the base model it was trained on (decision 31): a wake on another is
// refused before anything is placed or charged, and a Voice awake before a restart on another
// model goes to sleep, free, with the reason on its card.
//
// Each Voice is one state machine: its wakes, sleeps and metering run one at a time (a queue per
// Voice), and each re-reads the row first, so the database state, the metering and the engine's
// awake set agree whatever order requests arrive in.

import { KeyedQueue } from '@ownvoice/engine';
import { VOICE_BASE_MODEL_MESSAGES, type Voice } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { BaseModelIdentity } from '../engine/base-model.service.js';
import { AppError, errors } from '../errors.js';
import { AdapterRejectedError } from '../inference/inference-endpoint.js';
import type { InferenceHost } from '../inference/inference-host.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import type { Caller } from './sessions.service.js';
import type { UsageService } from './usage.service.js';
import { awakeVoice, managedVoice } from './voice-access.js';
import { refusalToWake, type ServerBaseModel } from './voice-base-model.js';
import { toVoiceView } from './voices.service.js';

const MINUTE_MS = 60_000;

export const SLEEP_MESSAGES = {
  /** A server that sells no usage says who can give more hours (billing off). */
  hoursRanOut: (sellsUsage: boolean) =>
    `This Voice went to sleep because your Voice waking hours ran out. ${sellsUsage ? 'Buy more hours to wake it again.' : 'This server does not sell usage: ask its administrator for more hours.'}`,
  idle: (minutes: number) =>
    `This Voice went to sleep after ${minutes === 1 ? 'a minute' : `${minutes} minutes`} without use.`,
  restartFailed: 'This Voice went to sleep when the service restarted. Wake it again to use it.',
  endpointLost:
    'This Voice went to sleep because the writing service it ran on stopped answering. Wake it again to use it.',
  adapterLost:
    'This Voice went to sleep because its writing service dropped it and it could not be loaded again. Wake it again to use it.',
  crashed:
    'This Voice went to sleep because the writing service crashed while running it. So that the service stays up for everyone, it can be woken again in an hour; if it happens again, train it anew.',
} as const;

/** A Voice blamed for a crash of the writing service may not be woken for this long. */
export const CRASH_QUARANTINE_MS = 60 * MINUTE_MS;
/** A Voice in use at two crashes within this time is blamed, even when others were in use too. */
const CRASH_STRIKE_WINDOW_MS = 60 * MINUTE_MS;

/** What a generation cut short by its Voice going to sleep tells the person. */
export const STOPPED_MESSAGES = {
  putToSleep: 'This Voice was put to sleep, so its writing stopped. Wake it up and try again.',
  deleted: 'This Voice was deleted, so its writing stopped.',
} as const;

/** A deleted Voice's id stays refused for waking this long, while its row and files go. */
const RETIRED_MS = 5 * MINUTE_MS;
/**
 * How often a Voice that is writing is marked used: well inside the shortest idle period (one
 * minute), so a long conversion is never taken for idleness and put to sleep mid-stream.
 */
const WRITING_TOUCH_MS = 15_000;

export interface ActivationOptions {
  idleMinutes: number;
  /** Whether this server sells usage (billing on): what a Voice whose hours ran out says to do. */
  sellsUsage: boolean;
  log: { warn(msg: string): void; error(obj: unknown, msg?: string): void };
}

export class ActivationService {
  private meterTimer: NodeJS.Timeout | undefined;
  /** The transitions of each Voice (wake, sleep, metering), one at a time. */
  private readonly queue = new KeyedQueue();
  /** Voices being deleted: never woken again. */
  private readonly retired = new Set<string>();
  /** When each endpoint that is not answering was found so: its Voices are not charged from then. */
  private readonly lostAt = new Map<string, Date>();
  /** When each awake Voice was last known loaded on its endpoint: it is not charged past a loss it did not see. */
  private readonly seenLoaded = new Map<string, Date>();
  /** When each Voice was in use at a crash of its writing service (ms), within the strike window. */
  private readonly crashStrikes = new Map<string, number[]>();
  /** Voices blamed for a crash, and until when (ms) they may not be woken. */
  private readonly quarantined = new Map<string, number>();

  constructor(
    private readonly voices: VoicesRepository,
    private readonly usage: UsageService,
    private readonly storage: ArtifactStorage,
    private readonly inference: InferenceHost,
    private readonly clock: Clock,
    private readonly options: ActivationOptions,
    /** The base model this server runs: a Voice wakes only on its own. */
    private readonly base: ServerBaseModel,
  ) {
    inference.on('lost', (endpointId) => {
      this.lostAt.set(endpointId, this.clock.now());
      void this.relocate(endpointId);
    });
    inference.on('back', (endpointId) => void this.relocate(endpointId));
    inference.on('crashed', (_endpointId, voiceIds) => this.blame(voiceIds));
    inference.on('missing', (voiceId) => {
      this.queue
        .run(voiceId, async () => {
          const voice = await this.voices.findById(voiceId);
          if (voice?.status === 'active' && voice.inferenceEndpoint) await this.verify(voice, voice.inferenceEndpoint);
        })
        .catch((error: unknown) => this.options.log.error(error, `loading Voice ${voiceId} again failed`));
    });
  }

  private owned(user: UserRow, id: string): Promise<VoiceRow> {
    return managedVoice(this.voices, user, id, 'Only the owner of this Voice can wake it or put it to sleep.');
  }

  async activate(user: UserRow, id: string): Promise<Voice> {
    return this.queue.run(id, async () => {
      // The row as it is now, after any transition that ran before this one.
      const voice = await this.owned(user, id);
      if (this.retired.has(voice.id)) throw errors.notFound('Voice');
      return this.wake(user, voice);
    });
  }

  /** The caller's Voice, awake, to write with; a key that may wake Voices wakes it (voice-access.ts). */
  awake(caller: Caller, id: string): Promise<VoiceRow> {
    return awakeVoice({ voices: this.voices, inference: this.inference, activation: this }, caller, id);
  }

  /** A Voice as its owner sees it after a transition, its base model compared with this server's. */
  private async view(voice: VoiceRow, user: UserRow): Promise<Voice> {
    return toVoiceView(voice, user, this.clock.now(), await this.base.known());
  }

  private async wake(user: UserRow, voice: VoiceRow): Promise<Voice> {
    const id = voice.id;
    const quarantinedFor = (this.quarantined.get(id) ?? 0) - this.clock.now().getTime();
    if (quarantinedFor > 0) {
      throw errors.voiceNotReady(
        `This Voice crashed the writing service while it ran, so it stays asleep for ${Math.ceil(quarantinedFor / MINUTE_MS)} more minutes. If it happens again, train it anew.`,
      );
    }
    if (voice.status === 'active' && voice.inferenceEndpoint) {
      // Awake by its row: make sure it really is, so that waking it is never a no-op on a lost Voice.
      await this.verify(voice, voice.inferenceEndpoint);
      return this.view((await this.voices.findById(id)) ?? voice, user);
    }
    if (voice.status === 'active' || voice.status === 'activating') return this.view(voice, user);
    if (voice.status !== 'ready' || !voice.adapterKey) {
      throw errors.voiceNotReady('Only a trained Voice that is asleep can be woken up.');
    }
    // On another base model it would load and write nonsense, or not load: refused before the
    // hours are even looked at, so nobody is asked to buy hours for a wake that cannot happen.
    const refusal = refusalToWake(voice, await this.base.identity());
    if (refusal) throw errors.baseModelMismatch(`${refusal} ${VOICE_BASE_MODEL_MESSAGES.notCharged}`);
    if ((await this.usage.remaining(user.id, 'activationHours')) < 1) throw errors.insufficientLimit('activationHours');
    const activating = await this.voices.transition(voice.id, ['ready'], { status: 'activating', statusMessage: null });
    if (!activating) return this.view((await this.voices.findById(id)) ?? voice, user);
    let endpoint: string;
    try {
      endpoint = await this.inference.place(
        voice.id,
        this.storage.localPath(voice.adapterKey),
        await this.voices.placements(),
      );
    } catch (error) {
      await this.voices.transition(voice.id, ['activating'], {
        status: 'ready',
        statusMessage: 'The Voice could not be woken up. Please try again.',
      });
      if (error instanceof AppError) throw error;
      // The detail (file paths included) is for the log; the person gets what to do.
      this.options.log.error(error, `waking Voice ${voice.id} failed`);
      if (error instanceof AdapterRejectedError) {
        throw errors.inferenceUnavailable(
          'This Voice could not be woken up: its model file is missing or damaged. Try again later; if it keeps failing, train it again.',
        );
      }
      throw errors.engineUnavailable(null);
    }
    const now = this.clock.now();
    const active = await this.voices.transition(voice.id, ['activating'], {
      status: 'active',
      meteredUntil: now,
      lastUsedAt: now,
      inferenceEndpoint: endpoint,
    });
    if (!active) {
      // Deleted while it woke: do not leave it loaded.
      await this.inference.unload(voice.id, endpoint, STOPPED_MESSAGES.deleted);
      return this.view((await this.voices.findById(id)) ?? voice, user);
    }
    this.seenLoaded.set(id, now);
    return this.view(active, user);
  }

  async deactivate(user: UserRow, id: string): Promise<Voice> {
    return this.queue.run(id, async () => {
      const voice = await this.owned(user, id);
      if (voice.status === 'ready' || voice.status === 'deactivating') return this.view(voice, user);
      if (voice.status !== 'active' && voice.status !== 'activating') {
        throw errors.voiceNotReady('Only an awake Voice can be put to sleep.');
      }
      return this.view(await this.sleep(voice, null, STOPPED_MESSAGES.putToSleep), user);
    });
  }

  /**
   * Frees a Voice that is about to be deleted; its awake time is charged first. From here on
   * it is never woken again.
   */
  async release(voice: VoiceRow): Promise<void> {
    this.retired.add(voice.id);
    setTimeout(() => this.retired.delete(voice.id), RETIRED_MS).unref();
    await this.queue.run(voice.id, async () => {
      const current = await this.voices.findById(voice.id);
      if (
        current &&
        (current.status === 'active' || current.status === 'activating' || current.status === 'deactivating')
      ) {
        await this.sleep(current, null, STOPPED_MESSAGES.deleted);
      }
      // Whatever the row says, nothing of it stays loaded.
      await this.inference.unload(voice.id, (current ?? voice).inferenceEndpoint, STOPPED_MESSAGES.deleted);
    });
  }

  /** Marks a use of an awake Voice (conversion, content): it is not idle. */
  async touch(voiceId: string): Promise<void> {
    await this.voices.transition(voiceId, ['active'], { lastUsedAt: this.clock.now() });
  }

  /** A Voice's writing, passed through: the Voice counts as used while the events come. */
  async *whileWriting<T>(voiceId: string, events: AsyncIterable<T>): AsyncGenerator<T> {
    let touched = this.clock.now().getTime();
    for await (const event of events) {
      yield event;
      const now = this.clock.now().getTime();
      if (now - touched >= WRITING_TOUCH_MS) {
        touched = now;
        await this.touch(voiceId);
      }
    }
  }

  /**
   * Puts a Voice to sleep; `message` is kept on the Voice, `stopped` told to generations cut short.
   * `lostSince`: when it stopped being usable, if before now (it is charged up to then).
   */
  private async sleep(voice: VoiceRow, message: string | null, stopped: string, lostSince?: Date): Promise<VoiceRow> {
    this.seenLoaded.delete(voice.id);
    const going = await this.voices.transition(voice.id, ['active', 'activating'], { status: 'deactivating' });
    await this.inference.unload(voice.id, (going ?? voice).inferenceEndpoint, stopped);
    // Each started minute counts: a Voice woken for 20 seconds costs one minute. Time on an
    // endpoint that stopped answering does not.
    const endpoint = going?.inferenceEndpoint;
    const lost = lostSince ?? (endpoint ? this.lostAt.get(endpoint) : undefined);
    if (going?.meteredUntil) await this.charge(going, { roundUp: true, until: lost });
    const asleep = await this.voices.transition(voice.id, ['deactivating'], {
      status: 'ready',
      meteredUntil: null,
      statusMessage: message,
      inferenceEndpoint: null,
    });
    return asleep ?? (await this.voices.findById(voice.id)) ?? voice;
  }

  /**
   * Charges awake time up to `until` (now by default; whole minutes, or started minutes when
   * `roundUp`). Returns false when the owner's hours ran out; what was left is spent.
   */
  private async charge(
    voice: VoiceRow,
    { roundUp = false, until = undefined as Date | undefined } = {},
  ): Promise<boolean> {
    if (!voice.meteredUntil) return true;
    const elapsed = (until ?? this.clock.now()).getTime() - voice.meteredUntil.getTime();
    const minutes = roundUp ? Math.ceil(elapsed / MINUTE_MS) : Math.floor(elapsed / MINUTE_MS);
    if (minutes <= 0) return true;
    const meteredUntil = new Date(voice.meteredUntil.getTime() + minutes * MINUTE_MS);
    try {
      await this.usage.consume(voice.userId, 'activationHours', minutes);
      await this.voices.update(voice.id, { meteredUntil });
      return true;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'INSUFFICIENT_LIMIT') throw error;
      const left = await this.usage.remaining(voice.userId, 'activationHours');
      if (left > 0) await this.usage.consume(voice.userId, 'activationHours', left);
      await this.voices.update(voice.id, { meteredUntil });
      return false;
    }
  }

  /** One metering round: charge awake Voices, and put to sleep those out of hours or idle. */
  async tick(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const listed of await this.voices.listByStatus(['active'])) {
      try {
        await this.queue.run(listed.id, async () => {
          // Put to sleep or deleted since the list was read: nothing to charge.
          const voice = await this.voices.findById(listed.id);
          if (voice?.status !== 'active') return;
          // On an endpoint that is not answering: charged up to then when it is placed again.
          if (!voice.inferenceEndpoint || !this.inference.isUp(voice.inferenceEndpoint)) return;
          // Charged only while it is really there to write with.
          if (!(await this.verify(voice, voice.inferenceEndpoint))) return;
          if (!(await this.charge(voice))) {
            const ranOut = SLEEP_MESSAGES.hoursRanOut(this.options.sellsUsage);
            await this.sleep(voice, ranOut, ranOut);
            return;
          }
          const lastUse = (voice.lastUsedAt ?? voice.meteredUntil ?? voice.updatedAt).getTime();
          if (now - lastUse >= this.options.idleMinutes * MINUTE_MS) {
            const idle = SLEEP_MESSAGES.idle(this.options.idleMinutes);
            await this.sleep((await this.voices.findById(voice.id)) ?? voice, idle, idle);
          }
        });
      } catch (error) {
        this.options.log.error(error, `metering Voice ${listed.id} failed`);
      }
    }
  }

  /**
   * After a restart: Voices that were awake are woken again (their adapters load in well under a
   * second); those caught half-way settle into the state they were heading for.
   */
  async restore(): Promise<void> {
    // Known once the base model is ready (it is, when the service restores); without it, placing fails anyway.
    const server = await this.base.identity().catch(() => undefined);
    for (const voice of await this.voices.listByStatus(['active', 'activating', 'deactivating'])) {
      await this.queue.run(voice.id, () => this.restoreOne(voice, server));
    }
  }

  private async restoreOne(voice: VoiceRow, server: BaseModelIdentity | undefined): Promise<void> {
    if (voice.status === 'deactivating' || !voice.adapterKey) {
      await this.voices.transition(voice.id, ['deactivating', 'activating', 'active'], {
        status: 'ready',
        meteredUntil: null,
      });
      return;
    }
    // Restarted on another base model: it sleeps, saying why and what to do. The time since it was
    // last charged is not the owner's to pay: the service went down, and it never woke on this one.
    const refusal = server && refusalToWake(voice, server);
    if (refusal) {
      this.options.log.warn(`Voice ${voice.id} was trained on another base model; it is not woken again`);
      const asleep = await this.voices.transition(voice.id, ['active', 'activating'], {
        status: 'ready',
        meteredUntil: null,
        statusMessage: refusal,
        inferenceEndpoint: null,
      });
      // An endpoint of its own may still hold it from before: nothing of it stays loaded.
      if (asleep && voice.inferenceEndpoint) {
        await this.inference
          .unload(voice.id, voice.inferenceEndpoint, refusal)
          .catch((error: unknown) => this.options.log.error(error, `unloading Voice ${voice.id} failed`));
      }
      return;
    }
    try {
      // An endpoint of its own that kept it loaded keeps it; otherwise it is placed again.
      const kept = voice.inferenceEndpoint && (await this.inference.holds(voice.inferenceEndpoint, voice.id));
      const endpoint = kept
        ? (voice.inferenceEndpoint as string)
        : await this.inference.place(
            voice.id,
            this.storage.localPath(voice.adapterKey),
            await this.voices.placements(),
          );
      const awake = await this.voices.transition(voice.id, ['active', 'activating'], {
        status: 'active',
        // Time the service was down is not the owner's to pay.
        meteredUntil: this.clock.now(),
        inferenceEndpoint: endpoint,
      });
      if (!awake) await this.inference.unload(voice.id, endpoint, STOPPED_MESSAGES.deleted);
      else this.seenLoaded.set(voice.id, this.clock.now());
    } catch (error) {
      this.options.log.warn(`Voice ${voice.id} could not be woken after a restart: ${(error as Error).message}`);
      await this.voices.transition(voice.id, ['active', 'activating'], {
        status: 'ready',
        meteredUntil: null,
        statusMessage: SLEEP_MESSAGES.restartFailed,
        inferenceEndpoint: null,
      });
    }
  }

  /**
   * The writing service's process faulted (a native crash) while `voiceIds` were loading or
   * writing there. Alone, a Voice is taken to be the cause; among several, once it has been there
   * at two crashes within the hour. The cause is put to sleep, not placed again when the process
   * is back, may not be woken for CRASH_QUARANTINE_MS, and its page says why.
   */
  private blame(voiceIds: string[]): void {
    const now = this.clock.now().getTime();
    for (const id of voiceIds) {
      const strikes = [...(this.crashStrikes.get(id) ?? []).filter((t) => now - t < CRASH_STRIKE_WINDOW_MS), now];
      this.crashStrikes.set(id, strikes);
      if (voiceIds.length > 1 && strikes.length < 2) continue;
      this.quarantined.set(id, now + CRASH_QUARANTINE_MS);
      this.options.log.warn(`Voice ${id} was running when the inference process crashed: it is put to sleep`);
      this.queue
        .run(id, async () => {
          const voice = await this.voices.findById(id);
          if (voice?.status === 'active' || voice?.status === 'activating') {
            await this.sleep(voice, SLEEP_MESSAGES.crashed, SLEEP_MESSAGES.crashed);
          } else if (voice?.status === 'ready') {
            // A wake that crashed the process while loading it has already failed.
            await this.voices.transition(id, ['ready'], { statusMessage: SLEEP_MESSAGES.crashed });
          }
        })
        .catch((error: unknown) => this.options.log.error(error, `putting Voice ${id} to sleep after a crash failed`));
    }
  }

  /**
   * The Voices on an endpoint that stopped answering (or came back) are placed again: on another
   * endpoint, or on it once it answers. Metering stays exact: their awake time is charged up to
   * when it was lost, and starts again, with the part-minute left over, when they are placed.
   * With nowhere to go yet they wait (Convert says they are being woken again); an endpoint that
   * is back but cannot take them, or a loss with no endpoint left, puts them to sleep.
   */
  private async relocate(endpointId: string): Promise<void> {
    const back = this.inference.isUp(endpointId);
    const lostAt = this.lostAt.get(endpointId);
    if (back) this.lostAt.delete(endpointId);
    // Nothing answers: the embedded process is restarting (wait for 'back'), or every endpoint is gone.
    const nowhere = !back && !this.inference.anyUp();
    if (nowhere && this.inference.restarts(endpointId)) return;
    for (const listed of await this.voices.listOnEndpoint(endpointId)) {
      await this.queue.run(listed.id, async () => {
        const voice = await this.voices.findById(listed.id);
        if (voice?.status !== 'active' || voice.inferenceEndpoint !== endpointId) return;
        if (nowhere) return void (await this.sleep(voice, SLEEP_MESSAGES.endpointLost, SLEEP_MESSAGES.endpointLost));
        await this.placeAgain(voice, lostAt, SLEEP_MESSAGES.endpointLost);
      });
    }
  }

  /**
   * Whether a Voice awake on `endpointId` is loaded there; one that is not (unloaded behind this
   * server's back) is placed again, free for the time since it was last seen loaded. An endpoint
   * that does not say is taken at its word until it does.
   */
  private async verify(voice: VoiceRow, endpointId: string): Promise<boolean> {
    const residency = await this.inference.residency(endpointId, voice.id);
    if (residency === 'loaded') this.seenLoaded.set(voice.id, this.clock.now());
    if (residency !== 'missing') return true;
    const lostSince = this.seenLoaded.get(voice.id) ?? voice.meteredUntil ?? this.clock.now();
    this.options.log.warn(`Voice ${voice.id} is no longer loaded on ${endpointId}; loading it again`);
    await this.placeAgain(voice, lostSince, SLEEP_MESSAGES.adapterLost);
    return false;
  }

  /**
   * Loads an awake Voice again, wherever there is room. Metering stays exact: its awake time is
   * charged up to `lostSince` and starts again, with the part-minute left over, from now. A Voice
   * that cannot be placed goes to sleep with `message`.
   */
  private async placeAgain(voice: VoiceRow, lostSince: Date | undefined, message: string): Promise<void> {
    if (!voice.adapterKey) return;
    try {
      const placed = await this.inference.place(
        voice.id,
        this.storage.localPath(voice.adapterKey),
        await this.voices.placements(),
      );
      const now = this.clock.now();
      const carried = lostSince && voice.meteredUntil ? lostSince.getTime() - voice.meteredUntil.getTime() : 0;
      const placedRow = await this.voices.transition(voice.id, ['active'], {
        inferenceEndpoint: placed,
        meteredUntil: new Date(now.getTime() - Math.max(0, carried)),
      });
      if (placedRow) this.seenLoaded.set(voice.id, now);
    } catch (error) {
      this.options.log.warn(`Voice ${voice.id} could not be placed again: ${(error as Error).message}`);
      await this.sleep(voice, message, message, lostSince);
    }
  }

  startMetering(intervalMs = MINUTE_MS): void {
    this.meterTimer = setInterval(() => {
      this.tick().catch((error: unknown) => this.options.log.error(error, 'metering failed'));
    }, intervalMs);
    this.meterTimer.unref();
  }

  stopMetering(): void {
    clearInterval(this.meterTimer);
  }
}
