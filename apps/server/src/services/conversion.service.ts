// Convert: the awake Voice rewrites a text chunk by chunk, streamed token by token, with the
// engine's one rewrite (chunk size of the Voice's training preset, judge and bounded rerolls: see
// rewrite.ts in the engine), so a conversion always ends. This service adds the checks before
// the stream, the Voice's activity, and the edit pass.
//
// Several conversions share a Voice fairly: each chunk waits in line for one of the engine's
// sequences. A client that goes away aborts generation at once through the signal.
import {
  editChat,
  editSettings,
  judgeRewrite,
  keepsMarkdownLayout,
  type RewriteEvent,
  type RewriteJudge,
  rewriteText,
} from '@ownvoice/engine';
import { CONVERT_MESSAGES, type ConvertEvent } from '@ownvoice/shared';
import type { VoiceRow } from '../db/schema.js';
import { presetFor } from '../engine/engine-host.js';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { engineErrors } from '../inference/streams.js';
import type { ActivationService } from './activation.service.js';
import { GenerationGate } from './generation-gate.js';
import type { Caller } from './sessions.service.js';
import { takenPassages, wholeText } from './taken-passages.js';
import type { UsageService } from './usage.service.js';

export interface ConversionOptions {
  /** Attempts per chunk, the first included. */
  maxAttempts: number;
  preset: 'tiny' | 'standard' | undefined;
  /** Decides whether a rewrite is usable (tests swap it to force rejections). */
  judge?: RewriteJudge;
}

/** A text rewritten in parts: `parts` (each with the whitespace before it) join into `text`. */
export interface RewrittenParts {
  text: string;
  parts: string[];
  /** The passages (0-based) the Voice could not write: their part is the text's own words. */
  failed: number[];
}

/** The rewrite's events closed as a stream is, so every passage is taken. */
async function* withComplete(events: AsyncIterable<RewriteEvent>): AsyncGenerator<ConvertEvent> {
  yield* events;
  yield { type: 'complete' };
}

/** A conversion checked and ready to stream. */
export interface PreparedConversion {
  events(signal: AbortSignal): AsyncGenerator<ConvertEvent>;
}

export class ConversionService {
  /** How much model work each person may hold at once (Convert, Create and the edit pass share it). */
  readonly gate = new GenerationGate();

  constructor(
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly inference: InferenceHost,
    private readonly options: ConversionOptions,
  ) {}

  /** Checks the request (throws the 4xx to answer before any event); the stream comes after. */
  /** `variation` > 0 asks for another rewrite than the default one (Re-rephrase, a retry). */
  async prepare(caller: Caller, voiceId: string, text: string, variation = 0): Promise<PreparedConversion> {
    if (!text.trim()) throw errors.validation(CONVERT_MESSAGES.emptyText);
    const voice = await this.activation.awake(caller, voiceId);
    return { events: (signal) => this.stream(voice, text, variation, signal) };
  }

  private async *stream(
    voice: VoiceRow,
    text: string,
    variation: number,
    signal: AbortSignal,
  ): AsyncGenerator<ConvertEvent> {
    await this.activation.touch(voice.id);
    yield* this.rewrite(voice, text, signal, variation);
    await this.activation.touch(voice.id);
    yield { type: 'complete' };
  }

  /**
   * The Voice's rewrite of a whole text in its layout, passage by passage (for interactive
   * writing): a passage the Voice could not write keeps the text's own words and is listed in
   * `failed`, as the whole Convert answers, so no error marker reaches the writer's text.
   */
  async rewriteInParts(voice: VoiceRow, text: string, signal: AbortSignal, variation = 0): Promise<RewrittenParts> {
    const parts: string[] = [];
    const events = this.rewrite(voice, text, signal, variation);
    const whole = await wholeText(takenPassages(withComplete(events)), (piece) => parts.push(piece.text));
    return { text: whole.text, parts, failed: whole.failed };
  }

  /** The rewriting events of one text (positions, chunk deltas, rerolls), without `complete`. */
  async *rewrite(voice: VoiceRow, text: string, signal: AbortSignal, variation = 0): AsyncGenerator<RewriteEvent> {
    const model = this.inference.forVoice(voice.id, voice.inferenceEndpoint);
    const preset = presetFor(this.inference.model(), this.options.preset);
    const events = engineErrors(
      rewriteText(model, text, {
        voiceId: voice.id,
        maxChars: preset.passageMaxChars,
        maxAttempts: this.options.maxAttempts,
        signal,
        variation,
        ...(this.options.judge ? { judge: this.options.judge } : {}),
      }),
    );
    yield* this.activation.whileWriting(voice.id, events);
  }

  /**
   * The edit pass for one chunk: the base model corrects factual drift of the rewrite against the
   * original. Spends one proofread, given back if the model fails.
   */
  async editChunk({ user, apiKey }: Caller, originalChunk: string, rephrasedChunk: string): Promise<string> {
    const model = await this.inference.base();
    // Throws the insufficient-resource error when none are left.
    const receipt = await this.usage.consume(user.id, 'chunkEdits', 1, { apiKeyId: apiKey?.id });
    try {
      const edited = await model.chat(
        editChat(originalChunk, rephrasedChunk),
        editSettings(await model.countTokens(rephrasedChunk)),
      );
      // An editor that answers nothing usable, or moves the markdown's headings, list markers,
      // code or links, leaves the Voice's text as it was.
      const usable = judgeRewrite(rephrasedChunk, edited).ok && keepsMarkdownLayout(rephrasedChunk, edited);
      return usable ? edited.trim() : rephrasedChunk;
    } catch (error) {
      await this.usage.refund(user.id, 'chunkEdits', 1, receipt);
      throw error;
    }
  }
}
