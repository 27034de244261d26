// The shipped house model: a valid llama GGUF of a few MB that writes English-looking text
// (mostly real words from its corpus), so tests of style on it mean something.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR, HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { modelHparams } from '../gguf/model-spec.js';
import { kvValue, readGguf } from '../gguf/reader.js';
import { VoiceEngine } from '../runtime/voice-engine.js';

let engine: VoiceEngine;
beforeAll(async () => {
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
});
afterAll(() => engine?.dispose());

const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];

describe('the tiny house model', () => {
  it('is a llama GGUF with a byte-level BPE tokenizer, small enough to ship', () => {
    const file = readGguf(HOUSE_MODEL_PATH);
    const h = modelHparams(file, HOUSE_MODEL_PATH);
    expect(h.arch).toBe('llama');
    expect(kvValue(file, 'tokenizer.ggml.model')).toBe('gpt2');
    expect(statSync(HOUSE_MODEL_PATH).size).toBeLessThan(8 * 1024 * 1024);
  });

  it('writes English-looking text: most words it produces are real words', async () => {
    const known = new Set(
      ['kjv.txt', 'jargon.txt'].flatMap((f) => words(readFileSync(path.join(CORPUS_DIR, f), 'utf8'))),
    );
    // Four sampled continuations per prompt, pooled: one 80-token sample is too noisy a measure.
    for (const prompt of ['And it came to pass, when the king', 'A hacker is a person who']) {
      const samples: string[] = [];
      for (const seed of [1, 2, 3, 4])
        samples.push(await engine.complete(prompt, { maxTokens: 80, temperature: 0.7, seed }));
      const text = samples.join('\n');
      const produced = words(text);
      expect(produced.length).toBeGreaterThan(80);
      const real = produced.filter((w) => known.has(w)).length / produced.length;
      expect(real, text).toBeGreaterThan(0.8);
    }
  });
});
