// Rewriting a text in a Voice: the one rewrite that Convert, Create, interactive writing, the
// Voice's evaluation, the command-line tool and the service bench all run.
//
//   text ──chunkText(maxChars)──> chunks (the size the Voice trained on; whitespace kept aside)
//   for each chunk, attempt 1..maxAttempts:
//     prompt    rewritePrompt(chunk)               the format the Voice trained on (prompts.ts)
//     budget    1.5 × the chunk's tokens + 16      room for a longer wording, not for rambling
//     decoding  attempt 1 greedy; later attempts sample (temperature 0.7, top-p 0.95, seed =
//               attempt) so they can come out differently; always a repeat penalty of 1.3
//     stop      "\n### ", the start of another prompt heading: the Voice went past its chunk
//     judge     judgeRewrite (rewrite-checks.ts); a rejected attempt is announced (chunk_reroll)
//               and asked again; when attempts run out the chunk is its inline error marker
//
// Events, in order: chunk_positions once, then per chunk its `chunk` deltas, each reroll
// resetting the chunk's text. Stitching the chunk texts back between separatorsOf(text,
// positions) gives the rewritten text in the original layout (rewriteWhole does that).
import { type ConvertEvent, chunkErrorMarker, separatorsOf, stitch } from '@ownvoice/shared';
import { chunkText } from '../chunking/chunk.js';
import type { TextGenerator } from '../runtime/text-generator.js';
import { textDeltas } from './deltas.js';
import { rewritePrompt } from './prompts.js';
import { judgeRewrite, type RewriteVerdict } from './rewrite-checks.js';

/** Greedy decoding loops on small models; a mild penalty keeps rewrites readable. */
export const REWRITE_REPEAT_PENALTY = 1.3;
/** Attempts per chunk, the first included. */
export const REWRITE_MAX_ATTEMPTS = 3;
const REWRITE_STOP = ['\n### '];

/** Decides whether a rewrite of `original` is usable; `nextOriginal` is the chunk after it. */
export type RewriteJudge = (original: string, rewritten: string, nextOriginal?: string) => RewriteVerdict;

export type RewriteEvent = Exclude<ConvertEvent, { type: 'complete' } | { type: 'error' }>;

export interface RewriteOptions {
  /** The awake Voice that writes; the plain base model when absent (the evaluation's baseline). */
  voiceId?: string | undefined;
  /** Longest chunk, in characters: the passage size of the Voice's training preset. */
  maxChars: number;
  maxAttempts?: number;
  /** Tests swap it to force rejections. */
  judge?: RewriteJudge;
  signal?: AbortSignal;
}

/** The token budget of one chunk's rewrite. */
export const rewriteBudget = async (model: TextGenerator, chunk: string): Promise<number> =>
  Math.ceil((await model.countTokens(chunk)) * 1.5) + 16;

/** The rewrite of `text`, streamed as events (see the top of this file). */
export async function* rewriteText(
  model: TextGenerator,
  text: string,
  { voiceId, maxChars, maxAttempts = REWRITE_MAX_ATTEMPTS, judge = judgeRewrite, signal }: RewriteOptions,
): AsyncGenerator<RewriteEvent> {
  const { chunks } = chunkText(text, { maxChars });
  yield {
    type: 'chunk_positions',
    chunkPositions: chunks.map((c) => ({ start: c.start, end: c.end })),
    baseText: text,
  };
  for (const chunk of chunks) {
    const next = chunks[chunk.index + 1]?.text;
    const maxTokens = await rewriteBudget(model, chunk.text);
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let written = '';
      for await (const delta of textDeltas(signal, (onChunk) =>
        model.complete(rewritePrompt(chunk.text), {
          ...(voiceId ? { voiceId } : {}),
          maxTokens,
          repeatPenalty: REWRITE_REPEAT_PENALTY,
          stop: REWRITE_STOP,
          onChunk,
          ...(signal ? { signal } : {}),
          ...(attempt > 1 ? { temperature: 0.7, topP: 0.95, seed: attempt } : {}),
        }),
      )) {
        written += delta;
        yield { type: 'chunk', chunkIndex: chunk.index, text: delta };
      }
      const verdict = judge(chunk.text, written, next);
      if (verdict.ok) break;
      yield { type: 'chunk_reroll', chunkIndex: chunk.index, reason: verdict.reason };
      if (attempt >= maxAttempts) {
        yield { type: 'chunk', chunkIndex: chunk.index, text: chunkErrorMarker(chunk.index, verdict.reason) };
        break;
      }
    }
  }
}

/**
 * The text a rewrite's events end with: each chunk's last attempt, trimmed, stitched back between
 * the separators of `text`.
 */
export async function stitchRewrite(text: string, events: AsyncIterable<RewriteEvent>): Promise<string> {
  let positions: { start: number; end: number }[] = [];
  const chunks: string[] = [];
  for await (const event of events) {
    if (event.type === 'chunk_positions') positions = event.chunkPositions;
    else if (event.type === 'chunk_reroll') chunks[event.chunkIndex] = '';
    else chunks[event.chunkIndex] = (chunks[event.chunkIndex] ?? '') + event.text;
  }
  return stitch(
    positions.map((_, i) => (chunks[i] ?? '').trim()),
    separatorsOf(text, positions),
  );
}

/** The rewrite of a whole text, stitched back into its layout. */
export const rewriteWhole = (model: TextGenerator, text: string, options: RewriteOptions): Promise<string> =>
  stitchRewrite(text, rewriteText(model, text, options));
