// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { PARAPHRASE_SYSTEM, paraphraseRequest } from './prompts.js';

export interface RewritePair {
  generic: string;
  original: string;
}

export async function buildPairs(
  engine: VoiceEngine,
  passages: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<RewritePair[]> {
  const pairs: RewritePair[] = [];
  for (const [i, original] of passages.entries()) {
    options.signal?.throwIfAborted();
    const budget = Math.ceil(engine.runtime.tokenize(original).length * 1.3) + 16;
    const generic = await engine.chat(
      [
        { role: 'system', content: PARAPHRASE_SYSTEM },
        { role: 'user', content: paraphraseRequest(original) },
      ],
      { maxTokens: budget, temperature: 0, ...(options.signal ? { signal: options.signal } : {}) },
    );
    // A model that answers nothing still gives a usable pair: the Voice learns to write the
    // passage from an empty prompt, which teaches style, not content.
    pairs.push({ generic: generic.trim(), original });
    options.onProgress?.(i + 1, passages.length);
  }
  return pairs;
}
