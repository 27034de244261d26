// The API server's one way to a model: a client for an inference endpoint that speaks vLLM's
// OpenAI-compatible protocol (our own `npm run inference`, or a vLLM server), built on the openai
// SDK. It streams completions and chats with the engine's generation options, counts tokens
// (/tokenize), lists the models served, and loads and unloads LoRA adapters at run time
// (/v1/load_lora_adapter, /v1/unload_lora_adapter).
//
// Failures come out as the engine's: an endpoint that cannot be reached, or that drops a
// generation half-way (its process killed), is an InferenceUnavailableError; a Voice whose
// adapter is not loaded there (unloaded under the generation, or lost with a restart) is a
// VoiceNotAwakeError; a request stopped by its signal ends with the signal's reason, as the
// engine's own generations do.
import type { ChatMessage, GenerateOptions, GenerationEnd, TextGenerator } from '@ownvoice/engine';
import { VoiceNotAwakeError } from '@ownvoice/engine';
import OpenAI from 'openai';
import { type EndpointTransport, transportFor } from './endpoint-transport.js';

/** An endpoint that does not answer, or stopped answering in the middle of a generation. */
export class InferenceUnavailableError extends Error {
  constructor(
    readonly endpointId: string,
    cause: unknown,
  ) {
    super(`inference endpoint ${endpointId} is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'InferenceUnavailableError';
  }
}

/** An endpoint refused to load an adapter: its file is missing there, or is not an adapter for the base model. */
export class AdapterRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdapterRejectedError';
  }
}

/** A chat that cannot be made to fit the model's context, however much of it is left out. */
export class PromptTooLongError extends Error {
  constructor(readonly contextLength: number) {
    super(`the prompt does not fit the model's context of ${contextLength} tokens`);
    this.name = 'PromptTooLongError';
  }
}

/** Fewest tokens an answer is left when a chat is fitted to the context. */
const MIN_ANSWER_TOKENS = 32;
/** Characters a shortened message keeps at least, at each end. */
const MIN_KEPT_CHARS = 200;

/** vLLM's error body: `code` is the HTTP status, also inside a stream's error event. */
const statusOf = (error: unknown): number | undefined => {
  if (!(error instanceof OpenAI.APIError)) return undefined;
  const code = (error.error as { code?: unknown } | undefined)?.code;
  return error.status ?? (typeof code === 'number' ? code : undefined);
};

/** The sampling fields vLLM takes beyond the OpenAI ones. */
interface VllmSampling {
  repetition_penalty?: number;
  ignore_eos?: boolean;
}

export interface EndpointOptions {
  /** How placements name this endpoint in the database: its URL, or "embedded" for the supervised one. */
  id: string;
  /** Where it listens, without /v1: http(s)://host:port, or unix:/path of its socket. */
  url: string;
  apiKey?: string | undefined;
  /** Longest a request may wait for its first byte. */
  timeoutMs?: number;
}

export class InferenceEndpoint implements TextGenerator {
  readonly id: string;
  private transport: EndpointTransport;
  private client: OpenAI;
  private baseModelId: string | undefined;
  private contextLength: number | undefined;

  constructor(private options: EndpointOptions) {
    this.id = options.id;
    this.transport = transportFor(options.url);
    this.client = this.connect();
  }

  get url(): string {
    return this.options.url;
  }

  /** Points the client at a new address (the supervised process restarted on another port). */
  moveTo(url: string): void {
    this.options = { ...this.options, url };
    void this.transport.close();
    this.transport = transportFor(url);
    this.client = this.connect();
    this.baseModelId = undefined;
  }

  /** Closes its connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  private connect(): OpenAI {
    return new OpenAI({
      baseURL: `${this.transport.origin}/v1`,
      fetch: this.transport.fetch,
      // The SDK insists on a key; a server without one ignores the header.
      apiKey: this.options.apiKey ?? 'none',
      // Generations are not idempotent to the person watching them stream: no silent retries.
      maxRetries: 0,
      timeout: this.options.timeoutMs ?? 10 * 60_000,
    });
  }

  /** The models served: the base model (no parent) and the adapters loaded. */
  async models(signal?: AbortSignal): Promise<{ base: string; adapters: string[] }> {
    const { data } = await this.call(() => this.client.models.list({ signal }));
    const cards = data as (OpenAI.Model & { parent?: string | null; max_model_len?: number | null })[];
    const base = cards.find((m) => m.parent == null);
    if (!base) throw new InferenceUnavailableError(this.id, new Error('it lists no base model'));
    this.baseModelId = base.id;
    this.contextLength = base.max_model_len ?? undefined;
    return { base: base.id, adapters: cards.filter((m) => m.parent != null).map((m) => m.id) };
  }

  /** Answers within `timeoutMs` or is taken as down. */
  async healthy(timeoutMs = 5_000): Promise<boolean> {
    try {
      const answer = await this.transport.fetch(`${this.transport.origin}/health`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Read to the end, so the connection goes back to the pool.
      await answer.arrayBuffer();
      return answer.ok;
    } catch {
      return false;
    }
  }

  async loadAdapter(name: string, adapterPath: string): Promise<void> {
    try {
      await this.call(() =>
        this.client.post('/load_lora_adapter', {
          body: { lora_name: name, lora_path: adapterPath, load_inplace: true },
          __binaryResponse: true,
        }),
      );
    } catch (error) {
      const status = statusOf(error);
      if (status === 400 || status === 404) throw new AdapterRejectedError((error as Error).message);
      throw error;
    }
  }

  /** Unloads `name`; one that is not loaded there is already what was asked for. */
  async unloadAdapter(name: string): Promise<void> {
    try {
      await this.call(() =>
        this.client.post('/unload_lora_adapter', { body: { lora_name: name }, __binaryResponse: true }),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  countTokens(text: string): Promise<number> {
    return this.tokenize({ prompt: text, add_special_tokens: false }, undefined);
  }

  /** vLLM's POST /tokenize (outside /v1): a prompt's tokens, or those of the prompt a chat makes. */
  private async tokenize(
    form: { prompt: string; add_special_tokens: false } | { messages: ChatMessage[] },
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const answer = await this.call(
      () =>
        this.client.post<{ count: number }>(`${this.transport.origin}/tokenize`, {
          body: { model: this.baseModelId, ...form },
          signal,
        }),
      signal ? { signal } : {},
    );
    return answer.count;
  }

  complete(prompt: string, options: GenerateOptions = {}): Promise<string> {
    return this.generate(options, async (model, signal) => {
      const stream = await this.client.completions.create(
        { model, prompt, stream: true, stream_options: { include_usage: true }, ...sampling(options) },
        { signal },
      );
      return (async function* () {
        for await (const chunk of stream) {
          const choice = chunk.choices[0];
          yield {
            text: choice?.text ?? '',
            finish: choice?.finish_reason ?? null,
            tokens: chunk.usage?.completion_tokens,
          };
        }
      })();
    });
  }

  chat(messages: ChatMessage[], options: GenerateOptions = {}): Promise<string> {
    return this.generate(options, async (model, signal) => {
      const fitted = await this.fit(messages, options.maxTokens, signal);
      const stream = await this.client.chat.completions.create(
        {
          model,
          messages: fitted.messages,
          stream: true,
          stream_options: { include_usage: true },
          ...sampling({ ...options, ...fitted }),
        },
        { signal },
      );
      return (async function* () {
        for await (const chunk of stream) {
          const choice = chunk.choices[0];
          yield {
            text: choice?.delta?.content ?? '',
            finish: choice?.finish_reason ?? null,
            tokens: chunk.usage?.completion_tokens,
          };
        }
      })();
    });
  }

  /**
   * The chat, and its answer's budget, fitted into the model's context: a server refuses a prompt
   * and budget that do not fit (as vLLM does), where an engine in this process would have dropped
   * the start of the conversation. The longest message loses its middle (marked "…") until the
   * prompt leaves room for the answer; if it cannot, the answer gets what room there is, and
   * below MIN_ANSWER_TOKENS the chat is a PromptTooLongError.
   */
  private async fit(
    messages: ChatMessage[],
    maxTokens: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ messages: ChatMessage[]; maxTokens?: number }> {
    if (this.contextLength === undefined) await this.models(signal);
    const limit = this.contextLength;
    if (!limit) return { messages, ...(maxTokens !== undefined ? { maxTokens } : {}) };
    const wanted = maxTokens ?? MIN_ANSWER_TOKENS;
    let current = messages;
    let room = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      room = limit - (await this.tokenize({ messages: current }, signal));
      if (room >= wanted) return { messages: current, ...(maxTokens !== undefined ? { maxTokens } : {}) };
      const longest = current.reduce((a, m, i) => (m.content.length > (current[a]?.content.length ?? 0) ? i : a), 0);
      const text = current[longest]?.content ?? '';
      const chars = current.reduce((n, m) => n + m.content.length, 0);
      // Characters per token over the whole chat, with a tenth more for good measure.
      const cut = Math.ceil(((wanted - room) * chars * 1.1) / (limit - room));
      const keep = text.length - cut;
      if (keep < 2 * MIN_KEPT_CHARS) break;
      const head = text.slice(0, Math.ceil(keep / 2));
      const tail = text.slice(text.length - Math.floor(keep / 2));
      current = current.map((m, i) => (i === longest ? { ...m, content: `${head}\n…\n${tail}` } : m));
    }
    if (room >= MIN_ANSWER_TOKENS) return { messages: current, maxTokens: room };
    throw new PromptTooLongError(limit);
  }

  /**
   * Runs one streamed generation: `model` is the Voice's adapter (named by its id) or the base
   * model; each delta goes to onChunk; the finish reason and the tokens generated (the stream's
   * last, usage chunk) to onFinish.
   */
  private async generate(
    options: GenerateOptions,
    open: (
      model: string,
      signal: AbortSignal | undefined,
    ) => Promise<AsyncIterable<{ text: string; finish: string | null; tokens?: number | undefined }>>,
  ): Promise<string> {
    const model = options.voiceId ?? this.baseModelId ?? (await this.models(options.signal)).base;
    let text = '';
    let finish: string | null = null;
    let tokens = 0;
    await this.call(async () => {
      for await (const delta of await open(model, options.signal)) {
        if (delta.text) {
          text += delta.text;
          options.onChunk?.(delta.text);
        }
        finish = delta.finish ?? finish;
        tokens = delta.tokens ?? tokens;
      }
    }, options);
    const end: GenerationEnd = { reason: finish === 'length' ? 'length' : 'stop', tokens };
    options.onFinish?.(end);
    return text;
  }

  /** Runs a request, with its failures as the engine's (see the top of this file). */
  private async call<T>(run: () => Promise<T>, options: GenerateOptions = {}): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const signal = options.signal;
      if (signal?.aborted) throw signal.reason;
      // Ours, from a step inside the request (fitting a chat, a nested call): already what it is.
      if (error instanceof PromptTooLongError || error instanceof InferenceUnavailableError) throw error;
      if (error instanceof VoiceNotAwakeError) throw error;
      const status = statusOf(error);
      if (status === 404 && options.voiceId) throw new VoiceNotAwakeError(options.voiceId);
      if (status !== undefined && status < 500) throw error;
      throw new InferenceUnavailableError(this.id, error);
    }
  }
}

function sampling(options: GenerateOptions): {
  max_tokens?: number;
  temperature: number;
  top_p?: number;
  seed?: number;
  stop?: string[];
} & VllmSampling {
  return {
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    // The engine's default is greedy; the protocol's is 1.
    temperature: options.temperature ?? 0,
    ...(options.topP !== undefined ? { top_p: options.topP } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.stop?.length ? { stop: options.stop } : {}),
    ...(options.repeatPenalty !== undefined ? { repetition_penalty: options.repeatPenalty } : {}),
    ...(options.ignoreEos ? { ignore_eos: true } : {}),
  };
}
