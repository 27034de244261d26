// The Voice engine at run time: one base model resident in llama.cpp, and any number of Voices
// awake beside it. Waking a Voice loads its LoRA adapter (well under a second: the base
// weights stay put) into a context of its own; sleeping it disposes that context and frees the
// adapter once no other Voice awake uses the same file (adapter-files.ts). Generation streams text chunks and stops at once when its AbortSignal fires.
// A context is never disposed under a generation: sleeping a Voice first aborts every
// generation on it and waits for them to end (llama.cpp reads freed memory otherwise), and the
// wakes and sleeps of one Voice run one at a time.

import { randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { statSync } from 'node:fs';
import {
  LlamaChatSession,
  LlamaCompletion,
  type LlamaContext,
  type LlamaModel,
  type Token,
  TokenBias,
} from 'node-llama-cpp';
import { GgufError } from '../gguf/errors.js';
import { AdapterFiles } from './adapter-files.js';
import { LlamaRuntime, type RuntimeOptions } from './llama-runtime.js';
import { KeyedQueue, Pool } from './pool.js';
import type { ChatMessage, GenerateOptions, GenerationEnd, TextGenerator } from './text-generator.js';

export { KeyedQueue } from './pool.js';

/** Generations that run at once on one context; more wait in line. */
const SEQUENCES_PER_CONTEXT = 2;
/**
 * Sequences chatBatch answers at once: llama.cpp decodes a context's sequences in one pass per
 * token, so on a CPU many answers cost little more time than one. (32 read prompts a little faster
 * on two cores, 58 s against 61 s for 32 short answers, but changed which near-ties llama.cpp's
 * batched decoding tips, and the house model's jargon Voice lost its lead in style over the base
 * model.) Shared out over the runtime's lanes (laneThreads) where it has more than one.
 */
export const BATCH_SEQUENCES = 16;
/** An answer's token budget where its options give none. */
const DEFAULT_MAX_TOKENS = 256;

export class VoiceNotAwakeError extends Error {
  constructor(
    readonly voiceId: string,
    /** Why it is not awake, for the person whose generation it stopped. */
    readonly reason = 'This Voice is asleep. Wake it up, then try again.',
  ) {
    super(`Voice ${voiceId} is not awake: ${reason}`);
    this.name = 'VoiceNotAwakeError';
  }
}

interface AwakeVoice extends PooledContext {
  /** The adapter file, resolved (AdapterFiles.key). */
  adapterPath: string;
  /** Size and mtime when loaded: llama.cpp caches adapters by path, so a changed file must be reloaded. */
  fingerprint: string;
}

type Sequence = ReturnType<LlamaContext['getSequence']>;

interface PooledContext {
  /** One context, or one per lane for wide work (laneThreads); their sequences share one pool. */
  contexts: LlamaContext[];
  sequences: Pool<Sequence>;
  /** Aborted when the context is about to go: every generation on it stops. */
  closing: AbortController;
  /** Generations under way on the context; it is disposed only after they all end. */
  running: Set<Promise<unknown>>;
}

/**
 * Contexts with their sequences taken up front and handed out one generation at a time, each
 * context's first before any second, so that work at once spreads over the contexts.
 */
function pooled(contexts: LlamaContext[], perContext = SEQUENCES_PER_CONTEXT): PooledContext {
  const sequences = Array.from({ length: perContext }, () => contexts.map((c) => c.getSequence())).flat();
  return { contexts, sequences: new Pool(sequences), closing: new AbortController(), running: new Set() };
}

/** Stops every generation on a pooled context, waits for them to end, then frees its contexts. */
async function retire(target: PooledContext, reason: Error): Promise<void> {
  target.closing.abort(reason);
  await Promise.allSettled([...target.running]);
  for (const context of target.contexts) await context.dispose();
}

const fingerprintOf = (file: string): string => {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
};

/** One chat of a batch: its messages and the settings of its answer (voiceId and onChunk do not apply). */
export interface BatchChat {
  messages: ChatMessage[];
  options?: Omit<GenerateOptions, 'voiceId' | 'onChunk' | 'signal'>;
}

export interface WakeOptions {
  /**
   * Spread the Voice over the runtime's lanes, a context each (laneThreads): for wide work such as
   * its evaluation's many rewrites at once. A Voice awake for people keeps one context.
   */
  wide?: boolean;
}

export interface BatchOptions {
  /** Chats answered at once (sequences of the batch's contexts); BATCH_SEQUENCES by default. */
  sequences?: number;
  signal?: AbortSignal;
  /** Called as each answer is complete, in the order they finish. */
  onAnswer?: (index: number, text: string) => void;
}

export class VoiceEngine implements TextGenerator {
  private readonly voices = new Map<string, AwakeVoice>();
  private baseContext: Promise<PooledContext> | undefined;
  /** Contexts of batches under way, retired on dispose. */
  private readonly batches = new Set<PooledContext>();
  /** The wakes and sleeps of each Voice, one at a time whatever their callers do. */
  private readonly transitions = new KeyedQueue();
  /** Adapter files counted by the Voices using them: one file may be awake under several ids. */
  private readonly adapters: AdapterFiles;

  private constructor(readonly runtime: LlamaRuntime) {
    this.adapters = new AdapterFiles(runtime.model);
  }

  static async start(options: RuntimeOptions): Promise<VoiceEngine> {
    return new VoiceEngine(await LlamaRuntime.load(options));
  }

  get awakeVoices(): string[] {
    return [...this.voices.keys()];
  }

  async countTokens(text: string): Promise<number> {
    return this.runtime.tokenize(text).length;
  }

  isAwake(voiceId: string): boolean {
    return this.voices.has(voiceId);
  }

  /** Loads a Voice's adapter. Throws GgufError for a missing or unfitting file. Returns the time taken. */
  wake(voiceId: string, adapterPath: string, options: WakeOptions = {}): Promise<{ milliseconds: number }> {
    return this.transitions.run(voiceId, () => this.wakeNow(voiceId, adapterPath, options));
  }

  private async wakeNow(voiceId: string, adapterPath: string, options: WakeOptions): Promise<{ milliseconds: number }> {
    const started = performance.now();
    const file = AdapterFiles.key(adapterPath);
    let fingerprint: string;
    try {
      fingerprint = fingerprintOf(file);
    } catch {
      throw new GgufError(`Cannot open ${adapterPath}: the Voice's adapter file is missing.`);
    }
    const current = this.voices.get(voiceId);
    if (current && current.adapterPath === file && current.fingerprint === fingerprint) {
      return { milliseconds: 0 };
    }
    if (current) await this.sleepNow(voiceId, 'This Voice was reloaded. Please try again.');
    await this.adapters.acquire(file, fingerprint);
    let pool: PooledContext;
    try {
      pool = await this.openPool(file, options.wide ? this.runtime.lanes() : [this.runtime.threads]);
    } catch (error) {
      await this.adapters.release(file);
      throw error;
    }
    this.voices.set(voiceId, { adapterPath: file, fingerprint, ...pool });
    return { milliseconds: performance.now() - started };
  }

  /**
   * Frees a Voice. Generations on it stop with a VoiceNotAwakeError carrying `reason` (what the
   * person is told), and the context goes only once they have all ended.
   */
  sleep(voiceId: string, reason?: string): Promise<void> {
    return this.transitions.run(voiceId, () => this.sleepNow(voiceId, reason));
  }

  private async sleepNow(voiceId: string, reason?: string): Promise<void> {
    const voice = this.voices.get(voiceId);
    if (!voice) return;
    this.voices.delete(voiceId);
    await retire(voice, new VoiceNotAwakeError(voiceId, reason));
    await this.adapters.release(voice.adapterPath);
  }

  private async contextFor(voiceId: string | undefined): Promise<PooledContext> {
    if (voiceId === undefined) {
      this.baseContext ??= this.openPool(undefined, [this.runtime.threads]);
      return this.baseContext;
    }
    const voice = this.voices.get(voiceId);
    if (!voice) throw new VoiceNotAwakeError(voiceId);
    return voice;
  }

  /**
   * Runs `work` on a free sequence of the right context, waiting in line for one. `work` gets the
   * options with a signal that also fires when the context is about to go; the generation then
   * fails with the reason (a VoiceNotAwakeError), never with a disposed context.
   */
  private async withSequence<T>(
    options: GenerateOptions,
    work: (sequence: Sequence, options: GenerateOptions) => Promise<T>,
  ): Promise<T> {
    const target = await this.contextFor(options.voiceId);
    const closing = target.closing.signal;
    closing.throwIfAborted();
    const signal = options.signal ? AbortSignal.any([options.signal, closing]) : closing;
    const run = (async () => {
      const { item: sequence, release } = await target.sequences.acquire(signal);
      try {
        // Each generation starts from an empty sequence: no state leaks between requests.
        await sequence.clearHistory();
        return await work(sequence, { ...options, signal });
      } finally {
        release();
      }
    })();
    target.running.add(run);
    const forget = () => target.running.delete(run);
    run.then(forget, forget);
    const result = await run;
    // A generation stopped because its Voice went to sleep is not a finished one.
    closing.throwIfAborted();
    return result;
  }

  /** Continues `prompt`; streams chunks through onChunk and resolves with the whole text. */
  async complete(prompt: string, options: GenerateOptions = {}): Promise<string> {
    return this.withSequence(options, async (sequence, withClosing) => {
      const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
      const counted = tokenCounter(withClosing);
      try {
        const { response, metadata } = await completion.generateCompletionWithMeta(
          prompt,
          generationOptions(withClosing, this.runtime.model, counted.onToken),
        );
        withClosing.onFinish?.(generationEnd(metadata, counted.tokens()));
        return response;
      } finally {
        completion.dispose({ disposeSequence: false });
      }
    });
  }

  /** Answers a conversation with the model's chat template. */
  async chat(messages: ChatMessage[], options: GenerateOptions = {}): Promise<string> {
    return this.withSequence(options, (sequence, withClosing) => this.chatOn(sequence, messages, withClosing));
  }

  /**
   * A context for each entry of `threads`, with that many threads and `perContext` sequences, pooled;
   * none is left open when one fails.
   */
  private async openPool(
    adapterPath: string | undefined,
    threads: readonly number[],
    perContext = SEQUENCES_PER_CONTEXT,
  ): Promise<PooledContext> {
    const contexts: LlamaContext[] = [];
    try {
      for (const t of threads) contexts.push(await this.runtime.createContext(adapterPath, perContext, t));
    } catch (error) {
      for (const context of contexts) await context.dispose();
      throw error;
    }
    return pooled(contexts, perContext);
  }

  /**
   * Answers many chats with the plain base model, on contexts of their own (one per lane,
   * laneThreads) that serve `sequences` of them at once and are freed when the batch ends (batch
   * work such as building a Voice's training pairs; interactive generations keep the base
   * context). Answers come back in the order of `chats`, each the same as chat() would give at
   * temperature 0.
   */
  async chatBatch(chats: readonly BatchChat[], options: BatchOptions = {}): Promise<string[]> {
    options.signal?.throwIfAborted();
    const answers: string[] = new Array(chats.length);
    if (chats.length === 0) return answers;
    const width = Math.max(1, Math.min(options.sequences ?? BATCH_SEQUENCES, chats.length));
    const lanes = this.runtime.lanes(width);
    const perLane = Math.ceil(width / lanes.length);
    const target = await this.openPool(undefined, lanes, perLane);
    this.batches.add(target);
    // The first failure stops the rest: the batch fails as a whole.
    const failed = new AbortController();
    const signal = AbortSignal.any([target.closing.signal, failed.signal, ...(options.signal ? [options.signal] : [])]);
    // Every sequence's generation listens to it: not a leak.
    setMaxListeners(8 * width, signal);
    let next = 0;
    const worker = async () => {
      while (next < chats.length) {
        signal.throwIfAborted();
        const i = next++;
        const chat = chats[i] as BatchChat;
        const { item: sequence, release } = await target.sequences.acquire(signal);
        try {
          await sequence.clearHistory();
          answers[i] = await this.chatOn(sequence, chat.messages, { ...chat.options, signal });
        } finally {
          release();
        }
        signal.throwIfAborted();
        options.onAnswer?.(i, answers[i] as string);
      }
    };
    const workers = Array.from({ length: perLane * lanes.length }, () =>
      worker().catch((error: unknown) => {
        failed.abort(error);
        throw error;
      }),
    );
    // The context is freed only once every generation on it has ended.
    const settled = Promise.allSettled(workers);
    target.running.add(settled);
    const results = await settled;
    target.running.delete(settled);
    // Not ours to free when dispose() took it first.
    const ours = this.batches.delete(target);
    if (ours) await retire(target, new Error('the batch has ended'));
    // A batch cut short by its caller or by dispose() fails with that reason, not a worker's echo of it.
    options.signal?.throwIfAborted();
    if (!ours) throw target.closing.signal.reason;
    const failure = results.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    return answers;
  }

  private async chatOn(sequence: Sequence, messages: ChatMessage[], options: GenerateOptions): Promise<string> {
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const session = new LlamaChatSession({
      contextSequence: sequence,
      chatWrapper: this.runtime.chatWrapper,
      autoDisposeSequence: false,
      ...(system ? { systemPrompt: system } : {}),
    });
    try {
      const turns = messages.filter((m) => m.role !== 'system');
      const last = turns.pop();
      if (last?.role !== 'user') throw new Error('a chat must end with a user message');
      const history = session.getChatHistory();
      for (const m of turns) {
        history.push(m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] });
      }
      session.setChatHistory(history);
      const counted = tokenCounter(options);
      const answer = await session.promptWithMeta(
        last.content,
        generationOptions(options, this.runtime.model, counted.onToken),
      );
      options.onFinish?.(generationEnd(answer, counted.tokens()));
      return answer.responseText;
    } finally {
      session.dispose({ disposeSequence: false });
    }
  }

  async dispose(): Promise<void> {
    for (const id of [...this.voices.keys()]) await this.sleep(id, 'The service is shutting down. Try again shortly.');
    for (const batch of [...this.batches]) {
      this.batches.delete(batch);
      await retire(batch, new Error('the engine is shutting down'));
    }
    if (this.baseContext) {
      await retire(await this.baseContext, new Error('the engine is shutting down'));
    }
    await this.runtime.dispose();
  }
}

/** Counts the tokens of a generation whose caller wants to hear how it ended. */
function tokenCounter(o: GenerateOptions) {
  let count = 0;
  return {
    onToken: o.onFinish
      ? (tokens: Token[]) => {
          count += tokens.length;
        }
      : undefined,
    tokens: () => count,
  };
}

/** node-llama-cpp's stop reason as a GenerationEnd. */
function generationEnd(
  meta: { stopReason: string; customStopTrigger?: readonly (string | Token)[] | undefined },
  tokens: number,
): GenerationEnd {
  if (meta.stopReason === 'maxTokens') return { reason: 'length', tokens };
  if (meta.stopReason === 'abort') return { reason: 'abort', tokens };
  const stopString = meta.customStopTrigger?.filter((part) => typeof part === 'string').join('');
  return { reason: 'stop', tokens, ...(stopString ? { stopString } : {}) };
}

function generationOptions(o: GenerateOptions, model: LlamaModel, onToken?: (tokens: Token[]) => void) {
  return {
    maxTokens: o.maxTokens ?? DEFAULT_MAX_TOKENS,
    temperature: o.temperature ?? 0,
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    seed: o.seed ?? unseeded(),
    ...(o.stop?.length ? { customStopTriggers: o.stop } : {}),
    ...(o.repeatPenalty && o.repeatPenalty !== 1
      ? { repeatPenalty: { penalty: o.repeatPenalty, lastTokens: 64 } }
      : {}),
    ...(o.signal ? { signal: o.signal, stopOnAbortSignal: true } : {}),
    ...(o.onChunk ? { onTextChunk: o.onChunk } : {}),
    ...(onToken ? { onToken } : {}),
    ...(o.ignoreEos ? { tokenBias: neverEndOfText(model) } : {}),
  };
}

/**
 * A fresh 32-bit seed for a request that names none. node-llama-cpp falls back to the current
 * second, so two sampled requests in the same second wrote the same text; an OpenAI or vLLM
 * server samples each request afresh when no seed is given.
 */
function unseeded(): number {
  return randomInt(2 ** 32);
}

/** A bias that keeps the model's end-of-text tokens from being chosen. */
function neverEndOfText(model: LlamaModel): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  for (const token of [model.tokens.eos, model.tokens.eot]) if (token !== null) bias.set(token, 'never');
  return bias;
}
