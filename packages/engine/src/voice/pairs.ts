// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { paraphraseChat, paraphraseSettings } from './prompts.js';

export interface RewritePair {
  generic: string;
  original: string;
}

/** Paraphrases running at once: the engine batches them on one context (its two sequences). */
const CONCURRENCY = 2;

export async function buildPairs(
  engine: VoiceEngine,
  passages: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<RewritePair[]> {
  const pairs: RewritePair[] = new Array(passages.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < passages.length) {
      const i = next++;
      const original = passages[i] as string;
      options.signal?.throwIfAborted();
      const generic = await engine.chat(paraphraseChat(original), {
        ...paraphraseSettings(engine.runtime.tokenize(original).length),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      // A model that answers nothing still gives a usable pair: the Voice learns to write the
      // passage from an empty prompt, which teaches style, not content.
      pairs[i] = { generic: generic.trim(), original };
      options.onProgress?.(++done, passages.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, passages.length) }, worker));
  return pairs;
}
