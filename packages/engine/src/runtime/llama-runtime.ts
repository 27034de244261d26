// The inference runtime: one base model resident in llama.cpp (through node-llama-cpp), with
// LoRA adapters attached per context. Files are validated by our own GGUF reader first,
// because llama.cpp aborts the whole process on some malformed files instead of failing.
import { cpus } from 'node:os';
import {
  type ChatHistoryItem,
  type ChatWrapper,
  getLlama,
  type Llama,
  type LlamaContext,
  type LlamaModel,
  resolveChatWrapper,
  type Token,
} from 'node-llama-cpp';
import { type ModelHparams, modelHparams, readAdapter } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';
import type { ChatMessage } from './text-generator.js';

export interface RuntimeOptions {
  modelPath: string;
  /**
   * CPU threads for llama.cpp. By default one for small models and one per core otherwise:
   * llama.cpp's threads spin at a barrier after every matrix product, and on a model this small
   * the barrier costs more than the work (the house model generates 15x faster on one thread than
   * on two busy cores; node-llama-cpp's default of 4 on 2 cores was ~1000x slower).
   */
  threads?: number;
  /** Use a GPU when llama.cpp finds one. Off by default: tests and the tiny model need none. */
  gpu?: boolean;
  contextSize?: number;
}

let llamaInstance: Promise<Llama> | undefined;
function llama(gpu: boolean): Promise<Llama> {
  llamaInstance ??= getLlama({ gpu: gpu ? 'auto' : false, build: 'never', logLevel: 'error' as never });
  return llamaInstance;
}

/**
 * Widths up to this are "small" models, fastest on one thread: in llama.cpp, and in PyTorch's
 * training (train-voice.ts).
 */
const SMALL_MODEL_MAX_EMBD = 512;

export const defaultThreads = (hparams: ModelHparams): number =>
  hparams.nEmbd <= SMALL_MODEL_MAX_EMBD ? 1 : Math.max(1, cpus().length);

/**
 * The most contexts ("lanes") wide work (a batch of paraphrases, a Voice's evaluation) spreads
 * over, sharing out the threads. llama.cpp's threads meet at a barrier after every operation of a
 * decoding step, which costs most where a step has little work: on two cores at SmolLM2-135M's
 * shape, 31 rewrites with an adapter took 71 s on one context of two threads and 29 s on two
 * contexts of one thread each; 32 paraphrases, 148 s against 114 s. Only two cores were measured.
 */
const MAX_LANES = 2;

/** `threads` shared out over at most `most` contexts, as evenly as they go: [1, 1] for 2, [2, 1] for 3. */
export function laneThreads(threads: number, most = MAX_LANES): number[] {
  const lanes = Math.max(1, Math.min(threads, most, MAX_LANES));
  return Array.from({ length: lanes }, (_, i) => Math.floor(threads / lanes) + (i < threads % lanes ? 1 : 0));
}

export class LlamaRuntime {
  private constructor(
    readonly model: LlamaModel,
    readonly hparams: ModelHparams,
    readonly threads: number,
    readonly contextSize: number,
    /**
     * The model's chat template, resolved once, as the model loads (not in the first chat someone
     * waits on). Resolving compares the template with every built-in wrapper by rendering it many
     * times, synchronously: about half a second of the event loop, which a chat session left to
     * resolve its own paid on every generation.
     */
    readonly chatWrapper: ChatWrapper,
  ) {}

  static async load(options: RuntimeOptions): Promise<LlamaRuntime> {
    const hparams = modelHparams(readGguf(options.modelPath), options.modelPath);
    const l = await llama(options.gpu ?? false);
    const model = await l.loadModel({ modelPath: options.modelPath, gpuLayers: options.gpu ? 'auto' : 0 });
    const threads = options.threads ?? defaultThreads(hparams);
    const contextSize = Math.min(options.contextSize ?? 2048, hparams.nCtx);
    return new LlamaRuntime(model, hparams, threads, contextSize, resolveChatWrapper(model));
  }

  tokenize(text: string): number[] {
    return [...this.model.tokenize(text)];
  }

  /** The beginning-of-text token a generation starts with, where the model has one. */
  get bosToken(): number | undefined {
    const { bos, shouldPrependBosToken } = this.model.tokens;
    return bos !== null && shouldPrependBosToken ? bos : undefined;
  }

  /**
   * The tokens a chat generation reads for `messages`, up to where the answer begins: the model's
   * own chat template, as the engine's chat applies it (system messages joined into one). Training
   * data made with it matches what the model sees at inference.
   */
  chatPromptTokens(messages: readonly ChatMessage[]): number[] {
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const chatHistory: ChatHistoryItem[] = [
      ...(system ? [{ type: 'system' as const, text: system }] : []),
      ...messages
        .filter((m) => m.role !== 'system')
        .map(
          (m): ChatHistoryItem =>
            m.role === 'user' ? { type: 'user', text: m.content } : { type: 'model', response: [m.content] },
        ),
      { type: 'model', response: [] },
    ];
    const { contextText } = this.chatWrapper.generateContextState({ chatHistory });
    return [...contextText.tokenize(this.model.tokenizer)];
  }

  /** The end-of-generation token a trained rewrite ends with. */
  get eosToken(): number {
    const eos = this.model.tokens.eos;
    if (eos === null) throw new Error('the model has no end-of-sequence token');
    return eos;
  }

  /** The tokens a chat answer ends on (end of sequence, end of turn): stop tokens for another decoder. */
  get endTokens(): number[] {
    const { eos, eot } = this.model.tokens;
    return [...new Set([eos, eot].filter((t): t is Token => t !== null))];
  }

  detokenize(tokens: readonly number[]): string {
    return this.model.detokenize(tokens as Token[]);
  }

  /** Checks that an adapter file fits this base model (throws GgufError otherwise). */
  validateAdapter(adapterPath: string): void {
    readAdapter(adapterPath, this.hparams);
  }

  /** The threads of each context wide work spreads over, for work `width` sequences wide at most. */
  lanes(width = Number.POSITIVE_INFINITY): number[] {
    return laneThreads(this.threads, width);
  }

  async createContext(adapterPath?: string, sequences = 1, threads = this.threads): Promise<LlamaContext> {
    if (adapterPath) this.validateAdapter(adapterPath);
    return this.model.createContext({
      contextSize: this.contextSize,
      sequences,
      threads,
      ...(adapterPath ? { lora: { adapters: [{ filePath: adapterPath, scale: 1 }] } } : {}),
    });
  }

  /** Raw next-token logits after each position of `tokens`: one Float32Array (vocab) per position. */
  async logits(tokens: readonly number[], adapterPath?: string): Promise<Float32Array[]> {
    const context = await this.createContext(adapterPath);
    try {
      const sequence = context.getSequence();
      const items = tokens.map((t) => [t as Token, { generateNext: { logits: true } }] as const);
      const results = await sequence.controlledEvaluate(items.map((i) => [i[0], i[1]]));
      return results.map((r, i) => {
        const map = r?.next?.logits;
        if (!map) throw new Error(`llama.cpp returned no logits at position ${i}`);
        const out = new Float32Array(this.hparams.nVocab);
        for (const [token, value] of map) out[token] = value;
        return out;
      });
    } finally {
      await context.dispose();
    }
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}
