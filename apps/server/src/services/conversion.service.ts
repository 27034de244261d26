// Convert: a text is cut into chunks the size the Voice trained on, and each chunk is rewritten
// by the awake Voice, streamed token by token. A rewrite that fails the checks of
// engine/rewrite-checks is announced as a reroll and asked for again, a bounded number of times;
// after that the chunk carries an inline error marker, so a conversion always ends.
//
// Several conversions share a Voice fairly: each chunk waits in line for one of the engine's
// sequences. A client that goes away aborts generation at once through the signal.
import {
  chunkText,
  judgeRewrite,
  REWRITE_REPEAT_PENALTY,
  type RewriteVerdict,
  rewritePrompt,
  stitch,
  VoiceNotAwakeError,
} from '@ownvoice/engine';
import { CONVERT_MESSAGES, type ConvertEvent, chunkErrorMarker } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import { type EngineHost, presetFor } from '../engine/engine-host.js';
import { errors } from '../errors.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ActivationService } from './activation.service.js';
import { GenerationGate } from './generation-gate.js';
import type { UsageService } from './usage.service.js';
import { managedVoice } from './voice-access.js';

export interface ConversionOptions {
  /** Attempts per chunk, the first included. */
  maxAttempts: number;
  preset: 'tiny' | 'standard' | undefined;
  /** Decides whether a rewrite is usable (tests swap it to force rejections). */
  judge?: (original: string, rewritten: string, nextOriginal?: string) => RewriteVerdict;
}

/** A conversion checked and ready to stream. */
export interface PreparedConversion {
  events(signal: AbortSignal): AsyncGenerator<ConvertEvent>;
}

const EDIT_SYSTEM =
  'You are a careful editor. You get an ORIGINAL text and a REWRITE of it in another style. Correct the REWRITE only where it differs from the ORIGINAL in facts: names, numbers, dates, places and claims. Keep the REWRITE\u2019s wording and style everywhere else. Answer with the corrected rewrite only.';

export class ConversionService {
  /** How much model work each person may hold at once (Convert, Create and the edit pass share it). */
  readonly gate = new GenerationGate();

  constructor(
    private readonly voices: VoicesRepository,
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly engine: EngineHost,
    private readonly options: ConversionOptions,
  ) {}

  /** Checks the request (throws the 4xx to answer before any event); the stream comes after. */
  async prepare(user: UserRow, voiceId: string, text: string): Promise<PreparedConversion> {
    if (!text.trim()) throw errors.validation(CONVERT_MESSAGES.emptyText);
    const voice = await this.awakeVoice(user, voiceId);
    return { events: (signal) => this.stream(voice, text, signal) };
  }

  /** The caller's own Voice, awake; the 4xx to answer otherwise. */
  async awakeVoice(user: UserRow, voiceId: string): Promise<VoiceRow> {
    const voice = await managedVoice(this.voices, user, voiceId, 'Only the owner of this Voice can convert with it.');
    const engine = await this.engine.started();
    if (voice.status !== 'active' || !engine?.isAwake(voice.id)) {
      throw errors.voiceNotReady('This Voice is asleep. Wake it up on the dashboard, then convert.');
    }
    return voice;
  }

  private async *stream(voice: VoiceRow, text: string, signal: AbortSignal): AsyncGenerator<ConvertEvent> {
    await this.activation.touch(voice.id);
    yield* this.rewrite(voice, text, signal);
    await this.activation.touch(voice.id);
    yield { type: 'complete' };
  }

  /** The Voice's rewrite of a whole text, stitched back into its layout (for interactive writing). */
  async rewriteWhole(voice: VoiceRow, text: string, signal: AbortSignal): Promise<string> {
    let positions: { start: number; end: number }[] = [];
    const chunks: string[] = [];
    for await (const event of this.rewrite(voice, text, signal)) {
      if (event.type === 'chunk_positions') positions = event.chunkPositions;
      else if (event.type === 'chunk_reroll') chunks[event.chunkIndex] = '';
      else chunks[event.chunkIndex] = (chunks[event.chunkIndex] ?? '') + event.text;
    }
    const separators: string[] = [];
    let at = 0;
    for (const p of positions) {
      separators.push(text.slice(at, p.start));
      at = p.end;
    }
    separators.push(text.slice(at));
    return stitch(
      positions.map((_, i) => (chunks[i] ?? '').trim()),
      separators,
    );
  }

  /** The rewriting events of one text (positions, chunk deltas, rerolls), without `complete`. */
  async *rewrite(
    voice: VoiceRow,
    text: string,
    signal: AbortSignal,
  ): AsyncGenerator<Exclude<ConvertEvent, { type: 'complete' } | { type: 'error' }>> {
    const engine = await this.engine.get();
    const preset = presetFor(this.engine.model(), this.options.preset);
    const { chunks } = chunkText(text, { maxChars: preset.passageMaxChars });
    yield {
      type: 'chunk_positions',
      chunkPositions: chunks.map((c) => ({ start: c.start, end: c.end })),
      baseText: text,
    };
    const judge = this.options.judge ?? judgeRewrite;
    for (const chunk of chunks) {
      const next = chunks[chunk.index + 1]?.text;
      const budget = Math.ceil(engine.runtime.tokenize(chunk.text).length * 1.5) + 16;
      for (let attempt = 1; ; attempt++) {
        signal.throwIfAborted();
        let written = '';
        // The first attempt is greedy; later ones sample, so they can come out differently.
        for await (const delta of streamText(signal, (onChunk) =>
          engine.complete(rewritePrompt(chunk.text), {
            voiceId: voice.id,
            maxTokens: budget,
            repeatPenalty: REWRITE_REPEAT_PENALTY,
            stop: ['\n### '],
            signal,
            onChunk,
            ...(attempt > 1 ? { temperature: 0.7, topP: 0.95, seed: attempt } : {}),
          }),
        )) {
          written += delta;
          yield { type: 'chunk', chunkIndex: chunk.index, text: delta };
        }
        const verdict = judge(chunk.text, written, next);
        if (verdict.ok) break;
        yield { type: 'chunk_reroll', chunkIndex: chunk.index, reason: verdict.reason };
        if (attempt >= this.options.maxAttempts) {
          yield { type: 'chunk', chunkIndex: chunk.index, text: chunkErrorMarker(chunk.index, verdict.reason) };
          break;
        }
      }
    }
  }

  /**
   * The edit pass for one chunk: the base model corrects factual drift of the rewrite against the
   * original. Spends one proofread, given back if the model fails.
   */
  async editChunk(user: UserRow, originalChunk: string, rephrasedChunk: string): Promise<string> {
    const engine = await this.engine.get();
    // Throws the insufficient-resource error when none are left.
    await this.usage.consume(user.id, 'chunkEdits', 1);
    try {
      const budget = Math.ceil(engine.runtime.tokenize(rephrasedChunk).length * 1.5) + 32;
      const edited = await engine.chat(
        [
          { role: 'system', content: EDIT_SYSTEM },
          { role: 'user', content: `ORIGINAL:\n${originalChunk}\n\nREWRITE:\n${rephrasedChunk}` },
        ],
        { maxTokens: budget, temperature: 0 },
      );
      // An editor that answers nothing usable leaves the Voice's text as it was.
      return judgeRewrite(rephrasedChunk, edited).ok ? edited.trim() : rephrasedChunk;
    } catch (error) {
      await this.usage.refund(user.id, 'chunkEdits', 1);
      throw error;
    }
  }
}

/** Turns a callback-streaming call into an async iterable of its text deltas. */
export async function* streamText(
  signal: AbortSignal,
  run: (onChunk: (text: string) => void) => Promise<unknown>,
): AsyncGenerator<string> {
  const pending: string[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: unknown;
  const finished = run((text) => {
    pending.push(text);
    wake?.();
  }).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      done = true;
      wake?.();
    },
  );
  while (true) {
    if (pending.length) {
      yield pending.shift() as string;
      continue;
    }
    if (done) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  await finished;
  // A Voice put to sleep (or deleted) under the generation: the reason is the person's to read.
  if (failure instanceof VoiceNotAwakeError) throw errors.voiceNotReady(failure.reason);
  if (failure) throw failure;
  signal.throwIfAborted();
}
