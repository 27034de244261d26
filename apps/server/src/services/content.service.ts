// Create Content, Quick mode: the plain base model thinks (a short plan), then drafts from the
// prompt, streamed; the awake Voice then rewrites the draft chunk by chunk, as Convert does.
// One generation spends one short content, given back only when no part of the draft reached the
// person (a reader who takes the draft and hangs up has had it).
import type { ContentFormat, CreateEvent } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { EngineHost } from '../engine/engine-host.js';
import { errors } from '../errors.js';
import type { ActivationService } from './activation.service.js';
import { type ConversionService, streamText } from './conversion.service.js';
import type { UsageService } from './usage.service.js';

/** Aims for each format: a size the model can hit and a shape it should follow. */
const FORMAT_GUIDE: Record<ContentFormat, { words: number; shape: string }> = {
  blog_post: { words: 450, shape: 'a blog post with a title line, a short introduction and a few sections' },
  email: { words: 180, shape: 'an e-mail with a greeting, the body and a sign-off' },
  social_post: { words: 60, shape: 'a social media post, one or two short paragraphs' },
  newsletter: { words: 350, shape: 'a newsletter with a headline and a few short items' },
  article: { words: 600, shape: 'an article with a headline and paragraphs' },
  free: { words: 300, shape: 'the piece the request describes' },
};

/** How much of a reference file the model reads. */
const MAX_REFERENCE_CHARS = 6000;
const TOKENS_PER_WORD = 1.6;

const PLAN_SYSTEM =
  'You plan a piece of writing before it is written. In a few short lines, note the audience, the main points in order, and the tone. Do not write the piece itself.';

const draftSystem = (format: ContentFormat) => {
  const guide = FORMAT_GUIDE[format];
  return `You are a clear, capable writer. Write ${guide.shape}, about ${guide.words} words, following the plan and the request. Use Markdown for headings and lists where they help. Answer with the piece only.`;
};

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
}

export class ContentService {
  constructor(
    private readonly conversion: ConversionService,
    private readonly activation: ActivationService,
    private readonly usage: UsageService,
    private readonly engine: EngineHost,
  ) {}

  /**
   * Checks the Voice and the balance, reads the reference, then spends one short content; throws
   * the 4xx to answer before any event.
   */
  async prepareQuick(user: UserRow, request: QuickCreateRequest): Promise<PreparedCreate> {
    const voice = await this.conversion.awakeVoice(user, request.voiceId);
    if ((await this.usage.remaining(user.id, 'shortContent')) < 1) throw errors.insufficientLimit('shortContent');
    const input = { prompt: request.prompt, format: request.format, reference: await request.reference?.() };
    await this.usage.consume(user.id, 'shortContent', 1);
    return {
      events: (signal) => this.quick(user, voice, input, signal),
    };
  }

  private async *quick(
    user: UserRow,
    voice: VoiceRow,
    request: QuickCreateInput,
    signal: AbortSignal,
  ): AsyncGenerator<CreateEvent> {
    // Set once a piece of the draft has been handed to the reader: from then on it is charged.
    let delivered = false;
    try {
      const engine = await this.engine.get();
      await this.activation.touch(voice.id);
      const reference = request.reference?.trim().slice(0, MAX_REFERENCE_CHARS);
      const ask = reference ? `${request.prompt}\n\nReference material:\n${reference}` : request.prompt;

      yield { type: 'generation_start', stage: 'content' };
      yield { type: 'thinking_start', stage: 'content' };
      let plan = '';
      for await (const text of streamText(signal, (onChunk) =>
        engine.chat(
          [
            { role: 'system', content: PLAN_SYSTEM },
            { role: 'user', content: ask },
          ],
          { maxTokens: 120, temperature: 0, repeatPenalty: 1.2, signal, onChunk },
        ),
      )) {
        plan += text;
        yield { type: 'thinking', stage: 'content', text };
      }
      yield { type: 'thinking_end', stage: 'content' };

      let draft = '';
      const words = FORMAT_GUIDE[request.format].words;
      for await (const text of streamText(signal, (onChunk) =>
        engine.chat(
          [
            { role: 'system', content: draftSystem(request.format) },
            { role: 'user', content: `${ask}\n\nPlan:\n${plan.trim()}` },
          ],
          { maxTokens: Math.ceil(words * TOKENS_PER_WORD), temperature: 0, repeatPenalty: 1.2, signal, onChunk },
        ),
      )) {
        draft += text;
        yield { type: 'content_chunk', stage: 'content', text };
        // The stream pulls the next event only once this one was written out.
        if (text.trim()) delivered = true;
      }
      draft = draft.trim();
      yield { type: 'generation_complete', stage: 'content', text: draft };
      if (!draft) {
        yield { type: 'error', error: 'The model wrote nothing for this prompt. Please rephrase it and try again.' };
        return;
      }
      for await (const event of this.conversion.rewrite(voice, draft, signal)) {
        yield { ...event, stage: 'rephrase' };
      }
      await this.activation.touch(voice.id);
      yield { type: 'complete' };
    } finally {
      // No draft reached the person: the short content is theirs again.
      if (!delivered) await this.usage.refund(user.id, 'shortContent', 1);
    }
  }
}
