// What a rewrite or a draft needs of a model: completions and chats with the generation options
// of voice-engine.ts, and token counts for their budgets. The VoiceEngine in this process is one;
// the API server's inference client (a model server reached over HTTP) is another, so the one
// rewrite (voice/rewrite.ts) runs unchanged on either.
import type { ChatMessage, GenerateOptions } from './voice-engine.js';

export interface TextGenerator {
  /** Continues `prompt`; `options.voiceId` names the awake Voice that writes (the base model when absent). */
  complete(prompt: string, options?: GenerateOptions): Promise<string>;
  /** Answers a conversation with the model's chat template. */
  chat(messages: ChatMessage[], options?: GenerateOptions): Promise<string>;
  /** Tokens of `text` in the base model's vocabulary, without special tokens. */
  countTokens(text: string): Promise<number>;
}
