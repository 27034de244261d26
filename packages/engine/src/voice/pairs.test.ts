// The pairs stage writes the same generic versions whichever decoder paraphrases: llama.cpp (the
// engine) or the trainer's PyTorch model (what a GPU machine uses). Token-level agreement, near-ties
// included, is trainer/generate.test.ts's; here the whole path: prompts, budgets, stop tokens, text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { SAMPLE_TEXT } from '../test/fixtures.js';
import { buildPairs, faithfulPairs, paraphraserFor, withoutLoop, withoutRequest } from './pairs.js';

const sentences = SAMPLE_TEXT.split(/(?<=\.) /);
const PASSAGES = [sentences.slice(0, 2).join(' '), sentences.slice(2, 3).join(' ')];

let engine: VoiceEngine;
beforeAll(async () => {
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
});
afterAll(() => engine?.dispose());

describe('paraphraserFor', () => {
  it('writes pairs on the trainer on CUDA, or in bfloat16 on a CPU that runs it fast, else on llama.cpp', () => {
    const [cuda, bf16, plain] = [
      { cuda: true, cpuBf16: false },
      { cuda: false, cpuBf16: true },
      { cuda: false, cpuBf16: false },
    ];
    expect(paraphraserFor(cuda, false)).toBe('trainer');
    expect(paraphraserFor(bf16, 'auto')).toBe('trainer');
    expect(paraphraserFor(bf16, true)).toBe('trainer');
    // The house model's float32 preset keeps llama.cpp.
    expect(paraphraserFor(bf16, false)).toBe('engine');
    expect(paraphraserFor(plain, 'auto')).toBe('engine');
  });
});

describe('buildPairs', () => {
  it('gives the same pairs from the trainer as from the engine, with progress from each', async () => {
    const answered: number[] = [];
    const fromEngine = await buildPairs(engine, PASSAGES, {
      prompt: 'house',
      onProgress: (done, total) => answered.push(done / total),
    });
    expect(answered).toEqual([0.5, 1]);
    const progress: number[] = [];
    const fromTrainer = await buildPairs(engine, PASSAGES, {
      prompt: 'house',
      trainer: { modelPath: HOUSE_MODEL_PATH, device: 'cpu' },
      onProgress: (done, total) => progress.push(done / total),
    });
    expect(fromEngine.every((p) => p.generic.length > 10)).toBe(true);
    expect(fromTrainer).toEqual(fromEngine);
    // The trainer reports its decoding as it goes (at most once a second), and its end.
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});

describe("a real model's paraphrases", () => {
  it('lose a line that repeats the request, and keep every other line', () => {
    const answer =
      'To reboot a machine.\n\nThe server is down.\n\nRewrite the text above in plain, everyday English. Answer with the rewritten text only.';
    expect(withoutRequest(answer)).toBe('To reboot a machine.\n\nThe server is down.');
    // Short lines that happen to be in the request are prose, not the request.
    expect(withoutRequest('Rewrite\nthe text')).toBe('Rewrite\nthe text');
    // A shortened request (SmolLM2-135M's, on a passage of the King James Bible) goes too.
    const shortened =
      'A man who does violence shall flee.\n\nRewrite the text in plain, everyday English. Answer with the rewritten text only.';
    expect(withoutRequest(shortened)).toBe('A man who does violence shall flee.');
    expect(withoutRequest('Rewrite the text in plain English about the server.')).toBe(
      'Rewrite the text in plain English about the server.',
    );
  });

  it('end where they start to loop, and keep a short sentence said twice', () => {
    const loop = 'The wicked rise, but the righteous fall. The righteous man is happy, but the wicked is evil.';
    expect(
      withoutLoop(`${loop} The righteous man is happy, but the wicked is evil. The righteous man is happy, but`),
    ).toBe(loop);
    // Across lines, and the same sentence in other case and punctuation is the same sentence.
    expect(withoutLoop('I am a philosopher.\n\nI take to the ship.\nI AM a philosopher!')).toBe(
      'I am a philosopher.\n\nI take to the ship.',
    );
    // Two words said twice is not a loop; a text without one is kept whole, layout included.
    expect(withoutLoop('Yes, sir. It rained. Yes, sir.')).toBe('Yes, sir. It rained. Yes, sir.');
    expect(withoutLoop('One line.\n\nAnother line')).toBe('One line.\n\nAnother line');
  });

  it('train only where the plain version kept the content, and on at least half the pairs', () => {
    const original = 'The committee moved the spring fair to the school field for more stalls.';
    const kept = {
      generic: 'The spring fair was moved by the committee to the school field, for more stalls.',
      original,
    };
    const lost = { generic: 'A wonderful day out for everyone.', original };
    expect(faithfulPairs([kept, lost, kept])).toEqual([kept, kept]);
    // Most drifted: the most faithful half stays, in its order.
    const some = { generic: 'The fair moved.', original };
    expect(faithfulPairs([lost, lost, some, lost])).toEqual([lost, some]);
  });
});
