// What a rewrite or a draft needs of a model: completions and chats with the generation options
// below, and token counts for their budgets. The VoiceEngine in this process is one;
// the API server's inference client (a model server reached over HTTP) is another, so the one
// rewrite (voice/rewrite.ts) runs unchanged on either.
export interface GenerateOptions {
  /** The Voice to write in; the plain base model when absent. */
  voiceId?: string;
  maxTokens?: number;
  /** 0 is greedy (deterministic). */
  temperature?: number;
  topP?: number;
  /** Sampling's seed (32-bit); a fresh random one for each request when absent. */
  seed?: number;
  stop?: string[];
  /** Penalise tokens seen in the last tokens (1 = off); keeps greedy output out of loops. */
  repeatPenalty?: number;
  /** Never end on the model's end-of-text token: write until maxTokens, a stop string or the signal. */
  ignoreEos?: boolean;
  signal?: AbortSignal;
  onChunk?: (text: string) => void;
  /** Told how the generation ended, just before it resolves (not when it fails). */
  onFinish?: (end: GenerationEnd) => void;
}

/** How a generation ended: what an OpenAI-style finish_reason and usage report. */
export interface GenerationEnd {
  /** `length`: the token budget ran out; `stop`: the end-of-text token or a stop string; `abort`: the signal fired. */
  reason: 'stop' | 'length' | 'abort';
  /** The stop string that ended it (not part of the text), when one did. */
  stopString?: string;
  /** Tokens generated. */
  tokens: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface TextGenerator {
  /** Continues `prompt`; `options.voiceId` names the awake Voice that writes (the base model when absent). */
  complete(prompt: string, options?: GenerateOptions): Promise<string>;
  /** Answers a conversation with the model's chat template. */
  chat(messages: ChatMessage[], options?: GenerateOptions): Promise<string>;
  /** Tokens of `text` in the base model's vocabulary, without special tokens. */
  countTokens(text: string): Promise<number>;
}
