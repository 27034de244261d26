// Create Content, Quick mode: the plain base model thinks (a short plan), then drafts from the
// prompt, streamed; the awake Voice then rewrites the draft chunk by chunk, as Convert does.
// One generation spends one short content, charged only when some of its rewrite came out in the
// Voice, however it ends, and given back otherwise (voice-output-charge.ts, decision 37).
import {
  BASE_CHAT_SETTINGS,
  createRequest,
  draftChat,
  draftTokens,
  FORMAT_GUIDE,
  planChat,
  SHORT_ANSWER_TOKENS,
} from '@ownvoice/engine';
import type { ContentFormat, CreateEvent } from '@ownvoice/shared';
import type { VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { streamText } from '../inference/streams.js';
import type { ActivationService } from './activation.service.js';
import type { ConversionService } from './conversion.service.js';
import type { Caller } from './sessions.service.js';
import type { UsageService } from './usage.service.js';
import { VoiceOutputCharge, type VoiceOutputWitness } from './voice-output-charge.js';

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
   * With the caller as witness: a piece of the Voice's rewrite reached its client. Call it before
   * pulling the next event: the charge is settled when the events end.
   */
  rewriteSent(): void;
  /** The short content charged, once settled (the events ended or completed); else undefined. */
  charged(): 0 | 1 | undefined;
}

export class ContentService {
  constructor(
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
    witness: VoiceOutputWitness = 'events',
  ): Promise<PreparedCreate> {
    const voice = await this.activation.awake({ user, apiKey }, request.voiceId);
    if ((await this.usage.remaining(user.id, 'shortContent')) < 1) throw errors.insufficientLimit('shortContent');
    const input = { prompt: request.prompt, format: request.format, reference: await request.reference?.() };
    const receipt = await this.usage.consume(user.id, 'shortContent', 1, { apiKeyId: apiKey?.id });
    const charge = new VoiceOutputCharge(witness, () => this.usage.refund(user.id, 'shortContent', 1, receipt));
    return {
      events: (signal) => this.quick(voice, input, charge, signal),
      rewriteSent: () => charge.pieceSent(),
      charged: () => charge.outcome,
    };
  }

  private async *quick(
    voice: VoiceRow,
    request: QuickCreateInput,
    charge: VoiceOutputCharge,
    signal: AbortSignal,
  ): AsyncGenerator<CreateEvent> {
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
      }
      draft = draft.trim();
      yield { type: 'generation_complete', stage: 'content', text: draft };
      if (!draft) {
        yield {
          type: 'error',
          code: 'ENGINE_UNAVAILABLE',
          error: 'The model wrote nothing for this prompt. Please rephrase it and try again.',
          charged: await charge.settle(),
        };
        return;
      }
      for await (const event of this.conversion.rewrite(voice, draft, signal)) {
        yield { ...event, stage: 'rephrase' };
        // The stream pulls the next event only once this one was written out.
        charge.reached(event);
      }
      await this.activation.touch(voice.id);
      yield { type: 'complete', charged: await charge.settleAtComplete() };
    } finally {
      // However the events ended (an error, the client gone), the same rule settles the charge.
      await charge.settle();
    }
  }
}
