// Rewriting a text in a Voice: the one rewrite that Convert, Create, interactive writing, the
// Voice's evaluation, the command-line tool and the service bench all run.
//
//   text ──chunkText(maxChars)──> chunks (the size the Voice trained on; whitespace kept aside)
//   each chunk ──planChunks──> in a text without markdown, the chunk whole; else its structure
//                              (kept byte for byte) and its pieces of prose (markdown-structure.ts)
//   for each chunk or piece, attempt 1..maxAttempts:
//     prompt    rewritePrompt(chunk or piece's words)  the format the Voice trained on (prompts.ts)
//     budget    1.5 × its tokens + 16                   room for a longer wording, not for rambling
//     decoding  attempt 1 greedy; later attempts sample (temperature 0.7, top-p 0.95, seed =
//               attempt) so they can come out differently; always a repeat penalty of 1.3. A
//               variation v > 0 (Re-rephrase, a retry) samples from attempt 1, seed 1000 v + attempt
//     stop      "\n### ", the start of another prompt heading: the Voice went past its text
//     judge     judgeRewrite (rewrite-checks.ts), against the words it was given and the next
//               ones, and for a heading or brief item of markdown judgeShortPiece too (it keeps
//               half its content words); a rejected attempt is announced (chunk_reroll) and asked
//               again; when attempts run out the chunk is its inline error marker, or the heading
//               or brief item its own words
//
// Events, in order: chunk_positions once, then per chunk its `chunk` deltas, each reroll
// resetting the chunk's text. A chunk of markdown streams its structure as it comes to it, and
// after a reroll the text it had finished before the rejected piece again, so its deltas always
// add up to its text so far. Stitching the chunk texts back between separatorsOf(text, positions)
// gives the rewritten text in the original layout (rewriteWhole does that). A chunk that is only
// structure (a code block) costs no model call.
import { type ConvertEvent, chunkErrorMarker, separatorsOf, stitch } from '@ownvoice/shared';
import { chunkText } from '../chunking/chunk.js';
import type { TextGenerator } from '../runtime/text-generator.js';
import { textDeltas } from './deltas.js';
import { type ChunkPart, type PieceWriter, type ProsePiece, planChunks } from './markdown-structure.js';
import { rewritePrompt } from './prompts.js';
import { isShortPiece, judgeRewrite, judgeShortPiece, type RewriteVerdict } from './rewrite-checks.js';

/** Greedy decoding loops on small models; a mild penalty keeps rewrites readable. */
export const REWRITE_REPEAT_PENALTY = 1.3;
/** Attempts per chunk (per piece of prose in a chunk of markdown), the first included. */
export const REWRITE_MAX_ATTEMPTS = 3;
const REWRITE_STOP = ['\n### '];

/** Decides whether a rewrite of `original` is usable; `nextOriginal` is what is rewritten after it. */
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
  /** Another rewrite than the default greedy one: 0 (or absent) is the default, each v > 0 its own. */
  variation?: number;
  signal?: AbortSignal;
}

/** The token budget of one chunk's rewrite. */
export const rewriteBudget = async (model: TextGenerator, chunk: string): Promise<number> =>
  Math.ceil((await model.countTokens(chunk)) * 1.5) + 16;

/** The rewrite of `text`, streamed as events (see the top of this file). */
export async function* rewriteText(
  model: TextGenerator,
  text: string,
  options: RewriteOptions,
): AsyncGenerator<RewriteEvent> {
  const { chunks } = chunkText(text, { maxChars: options.maxChars });
  yield {
    type: 'chunk_positions',
    chunkPositions: chunks.map((c) => ({ start: c.start, end: c.end })),
    baseText: text,
  };
  // In a text without markdown, a chunk is one piece, its own text, streamed as the model writes it.
  const markdown = planChunks(text, chunks);
  const plans = markdown ?? chunks.map((c) => [{ plain: c.text, writer: () => AS_WRITTEN }]);
  // Everything the model rewrites, in order: the judge checks each rewrite against the next one.
  const pieces = plans.flat().filter((p): p is ProsePiece => typeof p !== 'string');
  const nextOf = new Map(pieces.map((p, i) => [p, pieces[i + 1]?.plain]));
  for (const chunk of chunks) {
    let done = '';
    for (const part of plans[chunk.index] as ChunkPart[]) {
      if (typeof part === 'string') {
        done += part;
        yield { type: 'chunk', chunkIndex: chunk.index, text: part };
        continue;
      }
      // In markdown a heading or a brief item the Voice could not rewrite keeps its own words.
      const keepShort = markdown !== null && isShortPiece(part.plain);
      const written = yield* rewritePiece(model, chunk.index, part, nextOf.get(part), done, keepShort, options);
      if (written === null) break;
      done += written;
    }
  }
}

const AS_WRITTEN: PieceWriter = { push: (delta) => delta, end: () => '' };

/** A piece's own words, through its writer: what it reads as when the Voice leaves it as it is. */
const asWritten = (piece: ProsePiece): string => {
  const writer = piece.writer();
  return writer.push(piece.plain) + writer.end();
};

/**
 * One piece's rewrite, attempt after attempt, as events of its chunk; `done` is the chunk's text
 * before it. Returns the piece's text, or null when attempts ran out (the chunk is then its marker),
 * unless `keepShort`: then the piece keeps its own words.
 */
async function* rewritePiece(
  model: TextGenerator,
  chunkIndex: number,
  piece: ProsePiece,
  nextPlain: string | undefined,
  done: string,
  keepShort: boolean,
  { voiceId, maxAttempts = REWRITE_MAX_ATTEMPTS, judge = judgeRewrite, signal, variation = 0 }: RewriteOptions,
): AsyncGenerator<RewriteEvent, string | null> {
  const maxTokens = await rewriteBudget(model, piece.plain);
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const writer = piece.writer();
    let written = '';
    let out = '';
    for await (const delta of textDeltas(signal, (onChunk) =>
      model.complete(rewritePrompt(piece.plain), {
        ...(voiceId ? { voiceId } : {}),
        maxTokens,
        repeatPenalty: REWRITE_REPEAT_PENALTY,
        stop: REWRITE_STOP,
        onChunk,
        ...(signal ? { signal } : {}),
        ...(attempt > 1 || variation > 0 ? { temperature: 0.7, topP: 0.95, seed: variation * 1000 + attempt } : {}),
      }),
    )) {
      written += delta;
      const text = writer.push(delta);
      out += text;
      if (text) yield { type: 'chunk', chunkIndex, text };
    }
    const judged = judge(piece.plain, written, nextPlain);
    const verdict = judged.ok && keepShort ? judgeShortPiece(piece.plain, written) : judged;
    if (verdict.ok) {
      const text = writer.end();
      if (text) yield { type: 'chunk', chunkIndex, text };
      return out + text;
    }
    yield { type: 'chunk_reroll', chunkIndex, reason: verdict.reason };
    if (attempt >= maxAttempts && keepShort) {
      if (done) yield { type: 'chunk', chunkIndex, text: done };
      const kept = asWritten(piece);
      if (kept) yield { type: 'chunk', chunkIndex, text: kept };
      return kept;
    }
    if (attempt >= maxAttempts) {
      yield { type: 'chunk', chunkIndex, text: chunkErrorMarker(chunkIndex, verdict.reason) };
      return null;
    }
    if (done) yield { type: 'chunk', chunkIndex, text: done };
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
