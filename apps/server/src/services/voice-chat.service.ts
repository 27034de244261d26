// Writing in a Voice through OpenAI's chat completions (routes/v1): a person's own tools send a
// conversation, and Create's quick generation answers it (the base model's plan and draft, then
// the Voice's rewrite), charged as one short content with every rule of the pages.
//
//   messages ──> prompt: the last message, which must be the user's
//                reference material: the messages before it ("role: text"), as Create's file
//   answer   ──> only the Voice's rewrite, passage by passage (taken-passages.ts): one the Voice
//                could not write comes out as drafted, counted apart. The short content is
//                charged once a passage in the Voice reached the client; else it is given back.
import { type ContentFormat, ID_PATTERN, MAX_PROMPT_CHARS } from '@ownvoice/shared';
import type { VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { InferenceHost } from '../inference/inference-host.js';
import { voicePolicy } from '../policies/index.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ContentService } from './content.service.js';
import type { Caller } from './sessions.service.js';
import { type PassageCount, type TakenPiece, takenPassages } from './taken-passages.js';

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string | { type: 'text'; text: string }[];
}

/** A Voice as /v1 lists it. */
export interface VoiceModel {
  id: string;
  name: string;
  createdAt: Date;
}
const modelOf = (voice: VoiceRow): VoiceModel => ({ id: voice.id, name: voice.name, createdAt: voice.createdAt });
/** Statuses of a trained Voice a waking key can write with: awake, or woken on its request. */
const WAKEABLE: readonly VoiceRow['status'][] = ['active', 'activating', 'ready', 'deactivating'];
/**
 * Whether one of the caller's Voices is a model /v1 lists (and answers by id): awake, or, for a
 * key that wakes Voices (decision 45), any trained one, which its first request wakes.
 */
const listedFor =
  ({ apiKey }: Caller) =>
  (voice: VoiceRow): boolean =>
    apiKey?.wakesVoices ? WAKEABLE.includes(voice.status) && voice.adapterKey !== null : voice.status === 'active';

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

  /** The caller's Voices a chat can name: awake ones, and asleep ones for a key that wakes them. */
  async models(caller: Caller): Promise<VoiceModel[]> {
    const owned = await this.voices.listByOwner(caller.user.id);
    return owned.filter(listedFor(caller)).map(modelOf);
  }

  /** One of `models`, by its id; 404 MODEL_NOT_FOUND for any other (an asleep Voice says so). */
  async model(caller: Caller, id: string): Promise<VoiceModel> {
    const voice = await this.ownVoice(caller, id);
    if (!listedFor(caller)(voice)) {
      throw errors.modelNotFound(id, true);
    }
    return modelOf(voice);
  }

  /**
   * The caller's own Voice named as a model, asleep or awake; 404 MODEL_NOT_FOUND for anything else
   * (no such id, another person's Voice, public or not): a model is one of yours or not there.
   */
  private async ownVoice(caller: Caller, id: string): Promise<VoiceRow> {
    const voice = ID_PATTERN.test(id) ? await this.voices.findById(id) : undefined;
    if (!voice || !voicePolicy.canManage(caller.user, voice)) throw errors.modelNotFound(id);
    return voice;
  }

  /** Checks the Voice and the balance and spends one short content (the 4xx to answer otherwise). */
  async prepare(caller: Caller, request: VoiceChatRequest): Promise<PreparedChat> {
    // An asleep Voice of the caller's goes on, to be refused as asleep (VOICE_NOT_READY, decision 28).
    await this.ownVoice(caller, request.voiceId);
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
