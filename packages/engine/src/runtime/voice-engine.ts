// The Voice engine at run time: one base model resident in llama.cpp, and any number of Voices
// awake beside it. Waking a Voice loads its LoRA adapter (well under a second: the base
// weights stay put) into a context of its own; sleeping it disposes that context and frees the
// adapter. Generation streams text chunks and stops at once when its AbortSignal fires.
import { statSync } from 'node:fs';
import { LlamaChatSession, LlamaCompletion, type LlamaContext, type LlamaModel } from 'node-llama-cpp';
import { GgufError } from '../gguf/errors.js';
import { LlamaRuntime, type RuntimeOptions } from './llama-runtime.js';
import { Pool } from './pool.js';

/** Generations that run at once on one context; more wait in line. */
const SEQUENCES_PER_CONTEXT = 2;

export interface GenerateOptions {
  /** The Voice to write in; the plain base model when absent. */
  voiceId?: string;
  maxTokens?: number;
  /** 0 is greedy (deterministic). */
  temperature?: number;
  topP?: number;
  seed?: number;
  stop?: string[];
  /** Penalise tokens seen in the last tokens (1 = off); keeps greedy output out of loops. */
  repeatPenalty?: number;
  signal?: AbortSignal;
  onChunk?: (text: string) => void;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export class VoiceNotAwakeError extends Error {
  constructor(voiceId: string) {
    super(`Voice ${voiceId} is not awake. Wake it first.`);
    this.name = 'VoiceNotAwakeError';
  }
}

interface AwakeVoice {
  adapterPath: string;
  /** Size and mtime when loaded: llama.cpp caches adapters by path, so a changed file must be reloaded. */
  fingerprint: string;
  context: LlamaContext;
  sequences: Pool<Sequence>;
}

type Sequence = ReturnType<LlamaContext['getSequence']>;

interface PooledContext {
  context: LlamaContext;
  sequences: Pool<Sequence>;
}

/** A context with its sequences taken up front and handed out one generation at a time. */
function pooled(context: LlamaContext): PooledContext {
  const sequences = Array.from({ length: SEQUENCES_PER_CONTEXT }, () => context.getSequence());
  return { context, sequences: new Pool(sequences) };
}

const fingerprintOf = (file: string): string => {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
};

/** llama.cpp keeps every adapter it loaded until the model is disposed; this frees one. */
async function releaseAdapter(model: LlamaModel, adapterPath: string): Promise<void> {
  // node-llama-cpp exposes no public call for this; its model keeps loaded adapters in
  // `_loraAdapters` (path -> native handle with dispose()). Kept to this one function.
  const cache = (model as unknown as { _loraAdapters?: Map<string, { dispose(): Promise<void> }> })._loraAdapters;
  if (!cache) return;
  for (const [path, adapter] of cache) {
    if (path === adapterPath || path.endsWith(adapterPath)) {
      cache.delete(path);
      await adapter.dispose();
    }
  }
}

export class VoiceEngine {
  private readonly voices = new Map<string, AwakeVoice>();
  private baseContext: Promise<PooledContext> | undefined;

  private constructor(readonly runtime: LlamaRuntime) {}

  static async start(options: RuntimeOptions): Promise<VoiceEngine> {
    return new VoiceEngine(await LlamaRuntime.load(options));
  }

  get awakeVoices(): string[] {
    return [...this.voices.keys()];
  }

  isAwake(voiceId: string): boolean {
    return this.voices.has(voiceId);
  }

  /** Loads a Voice's adapter. Throws GgufError for a missing or unfitting file. Returns the time taken. */
  async wake(voiceId: string, adapterPath: string): Promise<{ milliseconds: number }> {
    const started = performance.now();
    let fingerprint: string;
    try {
      fingerprint = fingerprintOf(adapterPath);
    } catch {
      throw new GgufError(`Cannot open ${adapterPath}: the Voice's adapter file is missing.`);
    }
    const current = this.voices.get(voiceId);
    if (current && current.adapterPath === adapterPath && current.fingerprint === fingerprint) {
      return { milliseconds: 0 };
    }
    if (current) await this.sleep(voiceId);
    // A file rewritten in place under the same name would otherwise be served from the cache.
    await releaseAdapter(this.runtime.model, adapterPath);
    const context = await this.runtime.createContext(adapterPath, SEQUENCES_PER_CONTEXT);
    this.voices.set(voiceId, { adapterPath, fingerprint, ...pooled(context) });
    return { milliseconds: performance.now() - started };
  }

  async sleep(voiceId: string): Promise<void> {
    const voice = this.voices.get(voiceId);
    if (!voice) return;
    this.voices.delete(voiceId);
    await voice.context.dispose();
    await releaseAdapter(this.runtime.model, voice.adapterPath);
  }

  private async contextFor(voiceId: string | undefined): Promise<PooledContext> {
    if (voiceId === undefined) {
      this.baseContext ??= this.runtime.createContext(undefined, SEQUENCES_PER_CONTEXT).then(pooled);
      return this.baseContext;
    }
    const voice = this.voices.get(voiceId);
    if (!voice) throw new VoiceNotAwakeError(voiceId);
    return voice;
  }

  /** Runs `work` on a free sequence of the right context, waiting in line for one. */
  private async withSequence<T>(options: GenerateOptions, work: (sequence: Sequence) => Promise<T>): Promise<T> {
    const { sequences } = await this.contextFor(options.voiceId);
    const { item: sequence, release } = await sequences.acquire(options.signal);
    try {
      // Each generation starts from an empty sequence: no state leaks between requests.
      await sequence.clearHistory();
      return await work(sequence);
    } finally {
      release();
    }
  }

  /** Continues `prompt`; streams chunks through onChunk and resolves with the whole text. */
  async complete(prompt: string, options: GenerateOptions = {}): Promise<string> {
    return this.withSequence(options, async (sequence) => {
      const completion = new LlamaCompletion({ contextSequence: sequence, autoDisposeSequence: false });
      try {
        return await completion.generateCompletion(prompt, generationOptions(options));
      } finally {
        completion.dispose({ disposeSequence: false });
      }
    });
  }

  /** Answers a conversation with the model's chat template. */
  async chat(messages: ChatMessage[], options: GenerateOptions = {}): Promise<string> {
    return this.withSequence(options, (sequence) => this.chatOn(sequence, messages, options));
  }

  private async chatOn(sequence: Sequence, messages: ChatMessage[], options: GenerateOptions): Promise<string> {
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const session = new LlamaChatSession({
      contextSequence: sequence,
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
      return await session.prompt(last.content, generationOptions(options));
    } finally {
      session.dispose({ disposeSequence: false });
    }
  }

  async dispose(): Promise<void> {
    for (const id of [...this.voices.keys()]) await this.sleep(id);
    if (this.baseContext) await (await this.baseContext).context.dispose();
    await this.runtime.dispose();
  }
}

function generationOptions(o: GenerateOptions) {
  return {
    maxTokens: o.maxTokens ?? 256,
    temperature: o.temperature ?? 0,
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.stop?.length ? { customStopTriggers: o.stop } : {}),
    ...(o.repeatPenalty && o.repeatPenalty !== 1
      ? { repeatPenalty: { penalty: o.repeatPenalty, lastTokens: 64 } }
      : {}),
    ...(o.signal ? { signal: o.signal, stopOnAbortSignal: true } : {}),
    ...(o.onChunk ? { onTextChunk: o.onChunk } : {}),
  };
}
