// Writing in a Voice through OpenAI's chat completions (routes/v1): a person's own tools send a
// conversation, and Create's quick generation answers it (the base model's plan and draft, then
// the Voice's rewrite), charged as one short content with every rule of the pages.
//
//   messages ──> prompt: the last message, which must be the user's
//                reference material: the messages before it ("role: text"), as Create's file
//   answer   ──> only the Voice's rewrite, passage by passage (taken-passages.ts): one the Voice
//                could not write comes out as drafted, counted apart. The short content is
//                charged once a passage in the Voice reached the client; else it is given back.
import { type ContentFormat, MAX_PROMPT_CHARS } from '@ownvoice/shared';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ContentService } from './content.service.js';
import type { Caller } from './sessions.service.js';
import { type PassageCount, type TakenPiece, takenPassages } from './taken-passages.js';

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string | { type: 'text'; text: string }[];
}

export interface VoiceChatRequest {
  voiceId: string;
  messages: readonly ChatMessage[];
  format: ContentFormat;
}

/** A chat checked and charged, ready to write. */
export interface PreparedChat {
  /** The answer's text in pieces; returns how many passages the Voice wrote. */
  text(signal: AbortSignal): AsyncGenerator<TakenPiece, PassageCount>;
  /** A piece in the Voice reached the client: the chat is charged (see content.service.ts). */
  rewriteSent(): void;
  /** Tokens of the prompt and reference, and of an answer, in the base model's tokenizer. */
  countTokens(text: string): Promise<number>;
  promptText: string;
}

const textOf = (content: ChatMessage['content']): string =>
  typeof content === 'string' ? content : content.map((part) => part.text).join('\n');

/** The prompt and the reference material of a conversation; the 400 to answer when it has none. */
export function chatPrompt(messages: readonly ChatMessage[]): { prompt: string; reference: string | undefined } {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw errors.validation('The last message must be the user’s: it is what the Voice writes about.');
  }
  const prompt = textOf(last.content).trim();
  if (!prompt) throw errors.validation('The last user message is empty: say what the Voice should write.');
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw errors.validation(
      `The last user message can be at most ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters; put longer material in earlier messages.`,
    );
  }
  const before = messages
    .slice(0, -1)
    .map((m) => ({ role: m.role, text: textOf(m.content).trim() }))
    .filter((m) => m.text)
    .map((m) => `${m.role}: ${m.text}`);
  return { prompt, reference: before.length ? before.join('\n\n') : undefined };
}

export class VoiceChatService {
  constructor(
    private readonly voices: VoicesRepository,
    private readonly content: ContentService,
    private readonly inference: InferenceHost,
  ) {}

  /** The caller's awake Voices: the models a chat can name. */
  async models(caller: Caller): Promise<{ id: string; name: string; createdAt: Date }[]> {
    const owned = await this.voices.listByOwner(caller.user.id);
    return owned
      .filter((voice) => voice.status === 'active')
      .map((voice) => ({ id: voice.id, name: voice.name, createdAt: voice.createdAt }));
  }

  /** Checks the Voice and the balance and spends one short content (the 4xx to answer otherwise). */
  async prepare(caller: Caller, request: VoiceChatRequest): Promise<PreparedChat> {
    const { prompt, reference } = chatPrompt(request.messages);
    const prepared = await this.content.prepareQuick(
      caller,
      {
        prompt,
        format: request.format,
        voiceId: request.voiceId,
        reference: reference === undefined ? undefined : async () => reference,
      },
      // The client sees only whole passages, which the route sends: its word says what came out.
      'caller',
    );
    return {
      text: (signal) => takenPassages(prepared.events(signal)),
      rewriteSent: () => prepared.rewriteSent(),
      // Only once the answer is written, by when the base model has drafted it: nothing may fail
      // between the charge and the events that settle it.
      countTokens: async (text) => (await this.inference.base()).countTokens(text),
      promptText: reference ? `${reference}\n\n${prompt}` : prompt,
    };
  }
}
