// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { paraphraseChat, paraphraseSettings } from './prompts.js';

export interface RewritePair {
  generic: string;
  original: string;
}

export async function buildPairs(
  engine: VoiceEngine,
  passages: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<RewritePair[]> {
  let done = 0;
  // One batch on a context of its own: the engine decodes many paraphrases in each pass.
  const generics = await engine.chatBatch(
    passages.map((original) => ({
      messages: paraphraseChat(original),
      options: paraphraseSettings(engine.runtime.tokenize(original).length),
    })),
    {
      ...(options.signal ? { signal: options.signal } : {}),
      onAnswer: () => options.onProgress?.(++done, passages.length),
    },
  );
  // A model that answers nothing still gives a usable pair: the Voice learns to write the
  // passage from an empty prompt, which teaches style, not content.
  return passages.map((original, i) => ({ generic: (generics[i] ?? '').trim(), original }));
}
