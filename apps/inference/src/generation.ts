// One generation of a request, from the checked request to text deltas and how it ended. Before
// anything runs, the prompt is counted with the model's tokenizer and held to the context, as
// vLLM does: max_tokens defaults to what the context leaves, and a prompt and max_tokens that do
// not fit are a 400. While it runs it is counted in the metrics; it stops when `signal` fires
// (the client hung up) or its adapter is unloaded (the engine then throws VoiceNotAwakeError).
import { type ChatMessage, type GenerationEnd, textDeltas, type VoiceEngine } from '@ownvoice/engine';
import type { GenerationMetrics } from './metrics.js';
import { errors } from './openai-errors.js';
import type { SamplingOptions } from './routes/sampling.js';

export type Prompt = { kind: 'completion'; text: string } | { kind: 'chat'; messages: ChatMessage[] };

export interface PreparedGeneration {
  voiceId: string | undefined;
  prompt: Prompt;
  promptTokens: number;
  maxTokens: number;
  options: SamplingOptions;
}

/** Counts the prompt's tokens and fixes the token budget; throws the 400 vLLM gives a prompt that does not fit. */
export function prepareGeneration(
  engine: VoiceEngine,
  request: {
    voiceId: string | undefined;
    prompt: Prompt;
    maxTokens: number | null | undefined;
    options: SamplingOptions;
  },
): PreparedGeneration {
  const { runtime } = engine;
  const promptTokens =
    request.prompt.kind === 'chat'
      ? runtime.chatPromptTokens(request.prompt.messages).length
      : runtime.tokenize(request.prompt.text).length;
  const limit = runtime.contextSize;
  const requested = request.maxTokens ?? undefined;
  if (requested === undefined ? promptTokens >= limit : promptTokens + requested > limit) {
    throw errors.contextTooLong(limit, promptTokens, requested);
  }
  return { ...request, promptTokens, maxTokens: requested ?? limit - promptTokens };
}

export interface Generation {
  /** The text as it comes; after the last delta, throws what stopped the generation, if anything did. */
  deltas: AsyncGenerator<string>;
  /** How it ended; known once `deltas` is done. */
  end(): GenerationEnd;
}

/**
 * A stream's deltas go out at most this often, each carrying what was generated meanwhile (vLLM's
 * --stream-interval, in time rather than tokens): the house model writes hundreds of tokens a
 * second, and an event per token made a conversion through this server a quarter slower than the
 * engine in-process; a real model's tokens come further apart than this and go out one by one.
 */
export const STREAM_INTERVAL_MS = 10;

export function startGeneration(
  engine: VoiceEngine,
  metrics: GenerationMetrics,
  prepared: PreparedGeneration,
  signal: AbortSignal,
): Generation {
  let end: GenerationEnd | undefined;
  const run = (onChunk: (text: string) => void) => {
    const done = metrics.start();
    const options = {
      ...prepared.options,
      voiceId: prepared.voiceId,
      maxTokens: prepared.maxTokens,
      signal,
      onChunk,
      onFinish: (finish: GenerationEnd) => {
        end = finish;
      },
    };
    const { prompt } = prepared;
    const running =
      prompt.kind === 'chat' ? engine.chat(prompt.messages, options) : engine.complete(prompt.text, options);
    // A generation that failed (its adapter unloaded) counts as aborted, as vLLM counts it.
    return running.finally(() => done(end?.reason ?? 'abort'));
  };
  return {
    deltas: nonEmpty(textDeltas(signal, run, { intervalMs: STREAM_INTERVAL_MS })),
    end: () => end ?? { reason: 'abort', tokens: 0 },
  };
}

/** vLLM sends no chunk for a step that added no text. */
async function* nonEmpty(deltas: AsyncGenerator<string>): AsyncGenerator<string> {
  for await (const delta of deltas) if (delta) yield delta;
}

/** vLLM's finish_reason and stop_reason for an ended generation. */
export function finishFields(end: GenerationEnd): { finish_reason: 'stop' | 'length'; stop_reason: string | null } {
  return { finish_reason: end.reason === 'length' ? 'length' : 'stop', stop_reason: end.stopString ?? null };
}

export function usage(prepared: PreparedGeneration, end: GenerationEnd) {
  return {
    prompt_tokens: prepared.promptTokens,
    total_tokens: prepared.promptTokens + end.tokens,
    completion_tokens: end.tokens,
    prompt_tokens_details: null,
  };
}

/** Runs a generation to its end, for an answer that is not streamed. */
export async function wholeGeneration(generation: Generation): Promise<{ text: string; end: GenerationEnd }> {
  let text = '';
  for await (const delta of generation.deltas) text += delta;
  return { text, end: generation.end() };
}
