// The pairs stage writes the same generic versions whichever decoder paraphrases: llama.cpp (the
// engine) or the trainer's PyTorch model (what a GPU machine uses). Token-level agreement, near-ties
// included, is trainer/generate.test.ts's; here the whole path: prompts, budgets, stop tokens, text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { SAMPLE_TEXT } from '../test/fixtures.js';
import { buildPairs } from './pairs.js';

const sentences = SAMPLE_TEXT.split(/(?<=\.) /);
const PASSAGES = [sentences.slice(0, 2).join(' '), sentences.slice(2, 3).join(' ')];

let engine: VoiceEngine;
beforeAll(async () => {
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
});
afterAll(() => engine?.dispose());

describe('buildPairs', () => {
  it('gives the same pairs from the trainer as from the engine, with progress for each', async () => {
    const fromEngine = await buildPairs(engine, PASSAGES);
    const progress: number[] = [];
    const fromTrainer = await buildPairs(engine, PASSAGES, {
      trainer: { modelPath: HOUSE_MODEL_PATH },
      onProgress: (done, total) => progress.push(done / total),
    });
    expect(fromEngine.every((p) => p.generic.length > 10)).toBe(true);
    expect(fromTrainer).toEqual(fromEngine);
    expect(progress).toEqual([0.5, 1]);
  });
});
