// Create Content, Quick mode: the plain base model thinks (a short plan), then drafts from the
// prompt, streamed; the awake Voice then rewrites the draft chunk by chunk, as Convert does.
// One generation spends one short content, given back when no part of the draft reached the
// person (a reader who takes the draft and hangs up has had it), or when the writing service
// stopped under them.
import {
  BASE_CHAT_SETTINGS,
  createRequest,
  draftChat,
  draftTokens,
  FORMAT_GUIDE,
  planChat,
  SHORT_ANSWER_TOKENS,
} from '@ownvoice/engine';
import { type ContentFormat, type CreateEvent, rewriteIsUsable } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import { AppError, errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { streamText } from '../inference/streams.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ActivationService } from './activation.service.js';
import type { ConversionService } from './conversion.service.js';
import type { Caller } from './sessions.service.js';
import type { UsageReceipt, UsageService } from './usage.service.js';
import { awakeVoice } from './voice-access.js';

export interface QuickCreateRequest {
  prompt: string;
  format: ContentFormat;
  voiceId: string;
  /**
   * Reads the uploaded reference file, if one was sent; called only once every check that needs
   * no parsing has passed, so a refused request never costs an extraction.
   */
  reference?: (() => Promise<string | undefined>) | undefined;
}

interface QuickCreateInput {
  prompt: string;
  format: ContentFormat;
  reference: string | undefined;
}

export interface PreparedCreate {
  events(signal: AbortSignal): AsyncGenerator<CreateEvent>;
  /**
   * With `chargeWhen: 'rewrite sent'`: the caller says a piece of the rewrite reached its client.
   * Call it before pulling the next event: the charge is settled when the events end.
   */
  rewriteSent(): void;
}

/**
 * When a quick Create is charged: once a piece of the draft reached the reader (the pages, which
 * show the draft as it is written), or only once a piece of the Voice's rewrite reached the
 * caller's client (/v1, which sends nothing of the draft). Either way, never when no part of the
 * rewrite came out in the Voice.
 */
export type ChargeWhen = 'draft seen' | 'rewrite sent';

export class ContentService {
  constructor(
    private readonly voices: VoicesRepository,
    private readonly conversion: ConversionService,
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly inference: InferenceHost,
  ) {}

  /**
   * Checks the Voice and the balance, reads the reference, then spends one short content; throws
   * the 4xx to answer before any event.
   */
  async prepareQuick(
    { user, apiKey }: Caller,
    request: QuickCreateRequest,
    chargeWhen: ChargeWhen = 'draft seen',
  ): Promise<PreparedCreate> {
    const voice = await awakeVoice(this.voices, this.inference, user, request.voiceId);
    if ((await this.usage.remaining(user.id, 'shortContent')) < 1) throw errors.insufficientLimit('shortContent');
    const input = { prompt: request.prompt, format: request.format, reference: await request.reference?.() };
    const receipt = await this.usage.consume(user.id, 'shortContent', 1, { apiKeyId: apiKey?.id });
    const delivery = { chargeWhen, rewriteSent: false };
    return {
      events: (signal) => this.quick(user, voice, input, receipt, delivery, signal),
      rewriteSent: () => {
        delivery.rewriteSent = true;
      },
    };
  }

  private async *quick(
    user: UserRow,
    voice: VoiceRow,
    request: QuickCreateInput,
    receipt: UsageReceipt,
    delivery: { chargeWhen: ChargeWhen; rewriteSent: boolean },
    signal: AbortSignal,
  ): AsyncGenerator<CreateEvent> {
    // Set once a piece of the draft has been handed to the reader: from then on it is charged,
    // unless no part of its rewrite came out in the Voice.
    let delivered = false;
    let usable = true;
    try {
      const base = await this.inference.base();
      await this.activation.touch(voice.id);
      const ask = createRequest(request.prompt, request.reference);

      yield { type: 'generation_start', stage: 'content' };
      yield { type: 'thinking_start', stage: 'content' };
      let plan = '';
      for await (const text of streamText(signal, (onChunk) =>
        base.chat(planChat(ask), { ...BASE_CHAT_SETTINGS, maxTokens: SHORT_ANSWER_TOKENS, signal, onChunk }),
      )) {
        plan += text;
        yield { type: 'thinking', stage: 'content', text };
      }
      yield { type: 'thinking_end', stage: 'content' };

      let draft = '';
      const maxTokens = draftTokens(FORMAT_GUIDE[request.format].words);
      for await (const text of streamText(signal, (onChunk) =>
        base.chat(draftChat(request.format, ask, plan), { ...BASE_CHAT_SETTINGS, maxTokens, signal, onChunk }),
      )) {
        draft += text;
        yield { type: 'content_chunk', stage: 'content', text };
        // The stream pulls the next event only once this one was written out.
        if (text.trim()) delivered = true;
      }
      draft = draft.trim();
      yield { type: 'generation_complete', stage: 'content', text: draft };
      if (!draft) {
        yield {
          type: 'error',
          code: 'ENGINE_UNAVAILABLE',
          error: 'The model wrote nothing for this prompt. Please rephrase it and try again.',
        };
        return;
      }
      // Each chunk's rewrite as it stands (a reroll starts it again), to know what was delivered.
      const rewritten: string[] = [];
      for await (const event of this.conversion.rewrite(voice, draft, signal)) {
        if (event.type === 'chunk') rewritten[event.chunkIndex] = (rewritten[event.chunkIndex] ?? '') + event.text;
        if (event.type === 'chunk_reroll') rewritten[event.chunkIndex] = '';
        yield { ...event, stage: 'rephrase' };
      }
      await this.activation.touch(voice.id);
      // A draft whose every chunk failed to come out in the Voice is not what Create sells: the
      // short content is given back (the page says so and offers to retry those parts).
      usable = rewriteIsUsable(Array.from(rewritten, (text) => text ?? ''));
      if (!usable) delivered = false;
      yield { type: 'complete' };
    } catch (error) {
      // The writing service stopped under them (its message says nothing was charged): they did
      // not get what they paid for, whatever reached them.
      if (error instanceof AppError && error.code === 'ENGINE_UNAVAILABLE') {
        delivered = false;
        usable = false;
      }
      throw error;
    } finally {
      // Nothing they were to get reached them: the short content is theirs again.
      const charged = delivery.chargeWhen === 'draft seen' ? delivered : delivery.rewriteSent && usable;
      if (!charged) await this.usage.refund(user.id, 'shortContent', 1, receipt);
    }
  }
}
