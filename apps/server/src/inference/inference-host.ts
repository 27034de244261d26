// Where this API server's generations run: one or more inference endpoints (inference-endpoint.ts),
// either the ones named by OWNVOICE_INFERENCE_URLS (our inference servers or vLLM, on this
// machine or others) or, by default, one embedded process this server starts and supervises
// (supervisor.ts).
//
// A Voice is placed on one endpoint when it wakes (its adapter loaded there, the endpoint's id
// recorded on the Voice's row by the activation service), and its generations go there; plain
// base-model work (drafts, the edit pass) goes to the endpoint with the fewest generations
// running. Endpoints are watched: one that stops answering is reported lost, and found again
// when it answers; the activation service moves or puts to sleep the Voices placed on it.
//
//   services ──> InferenceHost ──> InferenceEndpoint (openai SDK) ──HTTP──> inference server / vLLM
//                     └── InferenceSupervisor (embedded: spawns apps/inference on a private Unix socket)
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { type ChatMessage, type GenerateOptions, type TextGenerator, VoiceNotAwakeError } from '@ownvoice/engine';
import { socketsDir } from '../data-folder.js';
import type { BaseModelService } from '../engine/base-model.service.js';
import { type BaseModelInfo, baseModelInfo } from '../engine/engine-host.js';
import { errors } from '../errors.js';
import { PEFT_FOLDER } from '../storage/voice-files.js';
import { InferenceEndpoint, InferenceUnavailableError, PromptTooLongError } from './inference-endpoint.js';
import { InferenceSupervisor, type SupervisorLog, type SupervisorOptions } from './supervisor.js';

/** The id placements give the embedded endpoint, whatever its address. */
export const EMBEDDED_ENDPOINT = 'embedded';
const WATCH_INTERVAL_MS = 5_000;
/** How long a Voice's sleep reason is kept for generations still asking for it. */
const STOPPED_MEMORY_MS = 5 * 60_000;
const NOT_ANSWERING = 'The writing service is not answering. Try again in a minute.';
/** What a generation cut short by its endpoint going away tells the person. */
// What was charged is not this message's to say: a Create's last event says it (decision 37).
export const STOPPED_MIDWAY =
  'The writing service stopped in the middle of this and is starting again: try again in a moment.';

export interface InferenceSettings {
  /** OWNVOICE_INFERENCE_URLS; empty runs the embedded process. */
  urls: string[];
  /** OWNVOICE_INFERENCE_KEY: the bearer key of the endpoints named by urls. */
  apiKey: string | undefined;
  /** What an endpoint loads: our GGUF adapters, or the PEFT export (vLLM). */
  adapterFormat: 'gguf' | 'peft';
  /** The artifact folder as the endpoints see it (a shared mount); undefined is the same path as here. */
  artifactDirOnEndpoints: string | undefined;
  /** Most Voices awake on one endpoint. */
  maxAdaptersPerEndpoint: number;
}

export interface InferenceHostOptions {
  settings: InferenceSettings;
  baseModel: BaseModelService;
  /** This server's artifact folder (where adapters are). */
  artifactDir: string;
  threads: number | undefined;
  dataDir: string;
  log: SupervisorLog & { error(obj: unknown, msg?: string): void };
  /** Tests: the embedded program to run. */
  entry?: SupervisorOptions['entry'];
}

interface Watched {
  endpoint: InferenceEndpoint;
  up: boolean;
  /** Generations running on it now, from this server. */
  running: number;
  /** The Voices among them, and those being loaded there: who was in it when it crashed. */
  inUse: Map<string, number>;
  /**
   * When a Voice's call there last failed for want of an answer (ms): a crash closes the
   * connections before the process's exit is seen, so its Voices have unwound by then.
   */
  cutOff: Map<string, number>;
}

/** A call cut off this long before the process's exit was seen was in it when it crashed. */
const CUT_OFF_MS = 5_000;

/**
 * The signals a process dies of when its own code faults (llama.cpp on a hostile adapter: SIGSEGV;
 * on an assertion: SIGABRT), as opposed to being killed from outside (SIGKILL by the kernel's OOM
 * killer or an operator, SIGTERM).
 */
const FAULT_SIGNALS: ReadonlySet<string> = new Set(['SIGSEGV', 'SIGBUS', 'SIGILL', 'SIGFPE', 'SIGABRT']);

const using = (watched: Watched, voiceId: string, by: 1 | -1): void => {
  const n = (watched.inUse.get(voiceId) ?? 0) + by;
  if (n > 0) watched.inUse.set(voiceId, n);
  else watched.inUse.delete(voiceId);
};

/** What a generation on a Voice its endpoint no longer holds tells the person; it is loaded again meanwhile. */
export const ADAPTER_MISSING =
  'This Voice had dropped out of its writing service and is being loaded again. Try again in a moment.';

/** Whether an endpoint has a Voice loaded; `unknown` when it could not be asked. */
export type Residency = 'loaded' | 'missing' | 'unknown';

interface HostEvents {
  lost: [endpointId: string];
  back: [endpointId: string];
  /** A Voice placed on the endpoint is not loaded there (unloaded behind this server's back). */
  missing: [voiceId: string, endpointId: string];
  /** The endpoint's process faulted while these Voices were loading or writing there. */
  crashed: [endpointId: string, voiceIds: string[]];
}

export class InferenceHost extends EventEmitter<HostEvents> {
  private readonly watched = new Map<string, Watched>();
  private supervisor: InferenceSupervisor | undefined;
  private starting: Promise<void> | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  /** Generations of each Voice from this server, to stop with the reason when it is put to sleep. */
  private readonly inFlight = new Map<string, Set<AbortController>>();
  /**
   * Why each Voice unloaded here was put to sleep, for a generation that asks for it afterwards
   * (a rewrite between two chunks): the endpoint's 404 is told as that reason.
   */
  private readonly stopped = new Map<string, string>();

  constructor(private readonly options: InferenceHostOptions) {
    super();
  }

  /** The base model, or the engine-unavailable error while it is still being found. */
  model(): BaseModelInfo {
    return baseModelInfo(this.options.baseModel);
  }

  /** Connects to the endpoints (starting the embedded process), once. */
  ready(): Promise<void> {
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    const { settings } = this.options;
    if (settings.urls.length) {
      for (const url of settings.urls) {
        const endpoint = new InferenceEndpoint({ id: url, url, apiKey: settings.apiKey });
        this.watched.set(url, {
          endpoint,
          up: await endpoint.healthy(),
          running: 0,
          inUse: new Map(),
          cutOff: new Map(),
        });
      }
    } else {
      await this.startEmbedded();
    }
    this.watchTimer = setInterval(() => void this.watch(), WATCH_INTERVAL_MS);
    this.watchTimer.unref();
  }

  private async startEmbedded(): Promise<void> {
    const modelPath = this.model().path;
    // A key of its own, so no other local process can use the model server or load files into it.
    const apiKey = randomBytes(24).toString('base64url');
    const supervisor = new InferenceSupervisor({
      env: {
        OWNVOICE_BASE_MODEL: modelPath,
        OWNVOICE_DATA_DIR: this.options.dataDir,
        OWNVOICE_INFERENCE_KEY: apiKey,
        ...(this.options.threads ? { OWNVOICE_THREADS: String(this.options.threads) } : {}),
      },
      socketDir: socketsDir(this.options.dataDir),
      log: this.options.log,
      ...(this.options.entry ? { entry: this.options.entry } : {}),
    });
    this.supervisor = supervisor;
    const url = await supervisor.url();
    const endpoint = new InferenceEndpoint({ id: EMBEDDED_ENDPOINT, url, apiKey });
    const watched: Watched = { endpoint, up: true, running: 0, inUse: new Map(), cutOff: new Map() };
    this.watched.set(EMBEDDED_ENDPOINT, watched);
    supervisor.on('down', (_how, signal) => {
      const now = Date.now();
      const cutOff = [...watched.cutOff].filter(([, at]) => now - at < CUT_OFF_MS).map(([id]) => id);
      watched.cutOff.clear();
      const suspects = [...new Set([...watched.inUse.keys(), ...cutOff])];
      this.mark(watched, false);
      if (signal && FAULT_SIGNALS.has(signal) && suspects.length) this.emit('crashed', EMBEDDED_ENDPOINT, suspects);
    });
    supervisor.on('up', (next) => {
      endpoint.moveTo(next);
      this.mark(watched, true);
    });
  }

  /** The embedded process, for tests and the log. */
  get embeddedPid(): number | undefined {
    return this.supervisor?.pid;
  }

  private mark(watched: Watched, up: boolean): void {
    if (watched.up === up) return;
    watched.up = up;
    this.options.log.warn(`inference endpoint ${watched.endpoint.id} is ${up ? 'back' : 'not answering'}`);
    this.emit(up ? 'back' : 'lost', watched.endpoint.id);
  }

  private async watch(): Promise<void> {
    for (const watched of this.watched.values()) this.mark(watched, await watched.endpoint.healthy());
  }

  /** Every endpoint, up or not (tests and the bench patch or inspect them). */
  endpoints(): InferenceEndpoint[] {
    return [...this.watched.values()].map((w) => w.endpoint);
  }

  isUp(endpointId: string | null): boolean {
    return endpointId !== null && this.watched.get(endpointId)?.up === true;
  }

  anyUp(): boolean {
    return [...this.watched.values()].some((w) => w.up);
  }

  /** Whether an endpoint that went away is being started again here (the embedded one). */
  restarts(endpointId: string): boolean {
    return endpointId === EMBEDDED_ENDPOINT && this.supervisor !== undefined;
  }

  /** The path an endpoint loads a Voice's adapter from. */
  adapterPath(localAdapterPath: string): string {
    const { settings, artifactDir } = this.options;
    const file =
      settings.adapterFormat === 'peft' ? path.join(path.dirname(localAdapterPath), PEFT_FOLDER) : localAdapterPath;
    if (!settings.artifactDirOnEndpoints) return file;
    return path.join(settings.artifactDirOnEndpoints, path.relative(artifactDir, file));
  }

  /**
   * Loads a Voice's adapter on the endpoint with room that holds the fewest Voices (`placed`: how
   * many each holds now, from the database, so that every API server places alike); answers the
   * endpoint's id. Tries the next one when an endpoint fails to answer.
   */
  async place(voiceId: string, localAdapterPath: string, placed: ReadonlyMap<string, number>): Promise<string> {
    await this.ready();
    this.stopped.delete(voiceId);
    const max = this.options.settings.maxAdaptersPerEndpoint;
    const candidates = [...this.watched.values()]
      .filter((w) => w.up && (placed.get(w.endpoint.id) ?? 0) < max)
      .sort((a, b) => (placed.get(a.endpoint.id) ?? 0) - (placed.get(b.endpoint.id) ?? 0) || a.running - b.running);
    if (!candidates.length) {
      throw errors.inferenceUnavailable(
        this.anyUp()
          ? 'Every writing server is full of awake Voices. Put a Voice you are not using to sleep, or try again later.'
          : NOT_ANSWERING,
      );
    }
    let lastError: unknown;
    for (const watched of candidates) {
      using(watched, voiceId, 1);
      try {
        await watched.endpoint.loadAdapter(voiceId, this.adapterPath(localAdapterPath));
        return watched.endpoint.id;
      } catch (error) {
        if (!(error instanceof InferenceUnavailableError)) throw error;
        watched.cutOff.set(voiceId, Date.now());
        lastError = error;
        this.mark(watched, false);
      } finally {
        using(watched, voiceId, -1);
      }
    }
    throw lastError;
  }

  /**
   * Unloads a Voice from its endpoint; its generations from this server stop first with `reason`
   * (a VoiceNotAwakeError, which the person reads). An endpoint that does not answer has lost it
   * already.
   */
  async unload(voiceId: string, endpointId: string | null, reason: string): Promise<void> {
    this.stopped.set(voiceId, reason);
    setTimeout(() => this.stopped.get(voiceId) === reason && this.stopped.delete(voiceId), STOPPED_MEMORY_MS).unref();
    for (const controller of this.inFlight.get(voiceId) ?? []) {
      controller.abort(new VoiceNotAwakeError(voiceId, reason));
    }
    const watched = endpointId ? this.watched.get(endpointId) : undefined;
    if (!watched) return;
    try {
      await watched.endpoint.unloadAdapter(voiceId);
    } catch (error) {
      if (!(error instanceof InferenceUnavailableError)) throw error;
    }
  }

  /** Whether an endpoint has a Voice's adapter loaded (after a restart of this server, say). */
  async holds(endpointId: string, voiceId: string): Promise<boolean> {
    return (await this.residency(endpointId, voiceId)) === 'loaded';
  }

  /** Whether an endpoint has a Voice loaded, telling a clear "no" from an endpoint that did not say. */
  async residency(endpointId: string, voiceId: string): Promise<Residency> {
    const watched = this.watched.get(endpointId);
    if (!watched?.up) return 'unknown';
    try {
      return (await watched.endpoint.models()).adapters.includes(voiceId) ? 'loaded' : 'missing';
    } catch {
      return 'unknown';
    }
  }

  /** The plain base model, on the endpoint with the fewest generations running. */
  async base(): Promise<TextGenerator> {
    await this.ready();
    const up = [...this.watched.values()].filter((w) => w.up).sort((a, b) => a.running - b.running);
    const watched = up[0];
    if (!watched) throw errors.inferenceUnavailable(NOT_ANSWERING);
    return this.generator(watched, undefined);
  }

  /** A Voice placed on `endpointId`, writing there. */
  forVoice(voiceId: string, endpointId: string | null): TextGenerator {
    const watched = endpointId ? this.watched.get(endpointId) : undefined;
    if (!watched) throw errors.voiceNotReady('This Voice is asleep. Wake it up on the dashboard, then convert.');
    return this.generator(watched, voiceId);
  }

  private generator(watched: Watched, voiceId: string | undefined): TextGenerator {
    const run = async (
      options: GenerateOptions,
      call: (endpoint: InferenceEndpoint, options: GenerateOptions) => Promise<string>,
    ): Promise<string> => {
      const controller = new AbortController();
      const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
      const mine = voiceId ? (this.inFlight.get(voiceId) ?? new Set<AbortController>()) : undefined;
      if (voiceId && mine) {
        mine.add(controller);
        this.inFlight.set(voiceId, mine);
      }
      watched.running++;
      if (voiceId) using(watched, voiceId, 1);
      try {
        return await call(watched.endpoint, { ...options, ...(voiceId ? { voiceId } : {}), signal });
      } catch (error) {
        if (voiceId && error instanceof VoiceNotAwakeError) {
          const reason = this.stopped.get(voiceId);
          if (reason) throw new VoiceNotAwakeError(voiceId, reason);
          // Not put to sleep from here: the endpoint lost it. The activation service loads it again.
          this.emit('missing', voiceId, watched.endpoint.id);
          throw new VoiceNotAwakeError(voiceId, ADAPTER_MISSING);
        }
        if (voiceId && error instanceof InferenceUnavailableError) watched.cutOff.set(voiceId, Date.now());
        throw this.failure(watched, error);
      } finally {
        watched.running--;
        if (voiceId) using(watched, voiceId, -1);
        if (mine) {
          mine.delete(controller);
          if (!mine.size && voiceId) this.inFlight.delete(voiceId);
        }
      }
    };
    return {
      complete: (prompt: string, options: GenerateOptions = {}) => run(options, (e, o) => e.complete(prompt, o)),
      chat: (messages: ChatMessage[], options: GenerateOptions = {}) => run(options, (e, o) => e.chat(messages, o)),
      countTokens: (text: string) =>
        watched.endpoint.countTokens(text).catch((error: unknown) => {
          throw this.failure(watched, error);
        }),
    };
  }

  /** An endpoint's failure as the person's error; one that stopped answering is checked at once. */
  private failure(watched: Watched, error: unknown): unknown {
    if (error instanceof PromptTooLongError) {
      return errors.validation('This is more than the model can read at once. Shorten it and try again.');
    }
    if (!(error instanceof InferenceUnavailableError)) return error;
    // It may have died: look now rather than at the next watch.
    void watched.endpoint.healthy().then((up) => this.mark(watched, up));
    return errors.inferenceUnavailable(STOPPED_MIDWAY);
  }

  async dispose(): Promise<void> {
    clearInterval(this.watchTimer);
    await this.supervisor?.stop();
    this.supervisor = undefined;
    this.starting = undefined;
    await Promise.all([...this.watched.values()].map((w) => w.endpoint.close()));
    this.watched.clear();
  }
}
