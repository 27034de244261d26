// The real base model (SmolLM2-135M-Instruct, Q4_1, from PyPI), small enough for two cores: one
// Voice, trained once from 16 of Melville's passages (the house model never saw him), checked for
// what only a real model can show and measured by the harness on eight neutral paragraphs.
//
// What a person reads: three ordinary paragraphs rewritten into English that keeps their content,
// with nothing of the prompts or the chat template in it. The house model writes pseudo-scripture.
//
// What the harness asserts, the directions that hold at this size, not the targets (`npm run eval
// -- --base smollm2-135m` measures those on the product's preset):
//   - the classifier tells Melville from neutral prose before it judges anything;
//   - the Voice keeps what the paragraphs say (semantic similarity and content-word recall);
//   - its rewrites read more like Melville than the paragraphs it was given, by the classifier's
//     mean probability. Not more than the base model's rewrites: those drift off the paragraph
//     (recall 0.44), and on eight paragraphs they came out nearer Melville than the Voice's in
//     one fresh-clone CI run of two (probability 0.14 against 0.08; 0.14 against 0.24 in the
//     other), the run-to-run spread decision 43 records. Burrows' Delta is reported, not asserted;
//   - it predicts Melville's held-out writing better than the base model.
//
// What a package carries: the trainer's forward pass agrees with llama.cpp's, and the Voice's GGUF
// adapter (in llama.cpp on the Q4_1 base) and its PEFT export (in Hugging Face's layout) pick the
// same next tokens. The bound: llama.cpp multiplies Q4_1 and Q8_0 weights with activations it
// first rounds to 8 bits a block (Q8_1 / Q8_0), the trainer with float32 activations on the same
// dequantized weights. On this model and text that rounding moved the logits by at most 0.038 of
// the largest one (1.37 of 36.2 over 74 positions, 2026-12-06), the same order as
// forward-agreement's Q8_0 bound, which it shares: 5e-2 x the largest logit. Top-1 tokens must
// agree wherever llama.cpp's margin between its first two is larger than that bound.
//
// One Voice for all three: each trained its own before, two trainings on the real model that
// took a third of the engine's tests' time in CI.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRecall } from '../eval/content-recall.js';
import { FUNCTION_WORDS } from '../eval/function-words.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { EMBEDDING_MODEL, SKIP_EMBEDDING_MODEL } from '../test/embedding-model.js';
import { SAMPLE_TEXT, tempDir } from '../test/fixtures.js';
import { compareLogits, trainerLogits } from '../test/logits.js';
import { REAL_MODEL, REAL_MODEL_THREADS, SKIP_REAL_MODEL } from '../test/real-model.js';
import { rewriteText, stitchRewrite } from '../voice/rewrite.js';
import { type TrainedVoice, VOICE_PRESETS } from '../voice/train-voice.js';
import { type HarnessReport, runHarness } from './harness.js';
import { formatHarness } from './report.js';

/** Three paragraphs of the kind people bring to Convert: plain, modern, on everyday subjects. */
const PARAGRAPHS = [
  'The town library opened a new reading room last spring. It has large windows, long tables and quiet corners where people can work. Most visitors come in the morning, when the room is bright.',
  'Our team will move the weekly meeting to Thursday at ten. Please bring the budget figures for the second quarter and a short list of the problems you want to discuss.',
  'Cooking rice well takes patience. Rinse the grains, use a little less water than you think, and let the pot rest with its lid on for ten minutes after the heat is off.',
];

/** What must never reach a person: the chat template's tokens and the prompts' own words. */
const LEAKS = [/<\|im_(start|end)\|>/, /<\|endoftext\|>/, /###/, /Plain text:/i, /In my voice/i, /Rewrite the text/i];

const FUNCTION = new Set(FUNCTION_WORDS);
/** Share of a text's words that are English function words: about 0.4 to 0.5 in English prose. */
const functionShare = (text: string) => {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.length ? words.filter((w) => FUNCTION.has(w)).length / words.length : 0;
};

/** Bound on |trainer - llama.cpp| as a share of the largest logit (see the top of the file). */
const ACTIVATION_ROUNDING_BOUND = 5e-2;

const argmax = (row: Float32Array) => row.reduce((best, v, i) => (v > (row[best] as number) ? i : best), 0);
/** The gap between a row's two largest values. */
const margin = (row: Float32Array) => {
  const sorted = [...row].sort((a, b) => b - a);
  return (sorted[0] as number) - (sorted[1] as number);
};

/**
 * How often `a` picks `reference`'s next token: at every position, and at the positions where
 * `reference`'s lead over its second choice is wider than `bound` (there a difference within the
 * bound cannot change the pick).
 */
function sameTopTokens(a: Float32Array[], reference: Float32Array[], bound: number) {
  const same = (p: number) => argmax(a[p] as Float32Array) === argmax(reference[p] as Float32Array);
  const sure = reference.flatMap((row, p) => (margin(row) > bound ? [p] : []));
  return {
    all: reference.filter((_, p) => same(p)).length / reference.length,
    sure: sure.length,
    sureSame: sure.filter(same).length,
  };
}

let dir: string;
let engine: VoiceEngine;
let report: HarnessReport;

/** The one Voice all the tests here use. */
const voice = (): TrainedVoice => (report.voices[0] as HarnessReport['voices'][number]).voice;

describe.skipIf(SKIP_REAL_MODEL || SKIP_EMBEDDING_MODEL)('a Voice on the real model, small', () => {
  beforeAll(async () => {
    dir = tempDir();
    const modelPath = REAL_MODEL as string;
    engine = await VoiceEngine.start({ modelPath, threads: REAL_MODEL_THREADS });
    report = await runHarness({
      engine,
      baseModelPath: modelPath,
      baseModelName: 'smollm2-135m',
      preset: { ...VOICE_PRESETS.standard, seqLen: 384, passageMaxChars: 600, maxPassages: 16 },
      workDir: dir,
      writers: ['melville'],
      paragraphs: 8,
      embeddingModel: EMBEDDING_MODEL,
      threads: REAL_MODEL_THREADS,
    });
    console.log(formatHarness(report).join('\n'));
    await engine.wake('voice', voice().adapterPath);
  }, 900_000);
  afterAll(async () => {
    await engine?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('rewrites ordinary paragraphs into English that keeps their content, leaking no prompt', async () => {
    expect(voice().trainPairs).toBeGreaterThanOrEqual(7);
    for (const paragraph of PARAGRAPHS) {
      const rewrite = await stitchRewrite(
        paragraph,
        rewriteText(engine, paragraph, { voiceId: 'voice', maxChars: VOICE_PRESETS.standard.passageMaxChars }),
      );
      const recall = contentRecall(paragraph, rewrite);
      console.log(`recall ${recall.toFixed(2)}: ${rewrite}`);
      expect(rewrite).not.toMatch(/\[Error converting/);
      for (const leak of LEAKS) expect(rewrite).not.toMatch(leak);
      expect(recall).toBeGreaterThanOrEqual(0.6);
      expect(functionShare(rewrite)).toBeGreaterThan(0.25);
    }
  });

  it("agrees with llama.cpp's logits within the activations' rounding, base and Voice, GGUF and PEFT", async () => {
    const modelPath = REAL_MODEL as string;
    const runtime = await LlamaRuntime.load({ modelPath, threads: REAL_MODEL_THREADS });
    try {
      const tokens = runtime.tokenize(SAMPLE_TEXT.slice(0, 300));
      const V = runtime.hparams.nVocab;
      // The base model: the trainer's forward pass against llama.cpp's.
      const llamaBase = await runtime.logits(tokens);
      const torchBase = await trainerLogits(dir, 'forward', { model: modelPath }, tokens, V);
      const base = compareLogits(torchBase, llamaBase);
      console.log(`base: max |diff| ${base.maxDiff.toFixed(3)} of ${base.maxAbs.toFixed(1)}`);
      expect(base.maxAbs).toBeGreaterThan(10);
      expect(base.maxDiff).toBeLessThan(ACTIVATION_ROUNDING_BOUND * base.maxAbs);
      const baseTop = sameTopTokens(torchBase, llamaBase, ACTIVATION_ROUNDING_BOUND * base.maxAbs);
      expect(baseTop.sure).toBeGreaterThan(0);
      expect(baseTop.sureSame).toBe(baseTop.sure);
      expect(baseTop.all).toBeGreaterThanOrEqual(0.9); // 74 of 74 when measured

      // The Voice as a person takes it home: the GGUF adapter in llama.cpp on the Q4_1 base, and
      // the PEFT export on the base in Hugging Face's layout.
      const llamaVoice = await runtime.logits(tokens, voice().adapterPath);
      const peftVoice = await trainerLogits(
        dir,
        'peft-forward',
        { model: modelPath, peft_dir: voice().peftDir },
        tokens,
        V,
      );
      expect(compareLogits(llamaVoice, llamaBase).maxDiff).toBeGreaterThan(0.1); // the adapter is in play
      const exported = compareLogits(peftVoice, llamaVoice);
      console.log(`Voice: max |diff| ${exported.maxDiff.toFixed(3)} of ${exported.maxAbs.toFixed(1)}`);
      expect(exported.maxDiff).toBeLessThan(ACTIVATION_ROUNDING_BOUND * exported.maxAbs);
      const voiceTop = sameTopTokens(peftVoice, llamaVoice, ACTIVATION_ROUNDING_BOUND * exported.maxAbs);
      expect(voiceTop.sureSame).toBe(voiceTop.sure);
      expect(voiceTop.all).toBeGreaterThanOrEqual(0.9);
    } finally {
      await runtime.dispose();
    }
  });

  it('judges with a classifier that tells the writer from neutral prose', () => {
    expect(report.classifier.accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps what the paragraphs say', () => {
    const [melville] = report.voices;
    expect(melville?.figures.similarity?.all).toBeGreaterThanOrEqual(0.8);
    expect(melville?.figures.recall.all).toBeGreaterThanOrEqual(0.6);
  });

  it('reads more like its writer than the paragraphs it was given, to the classifier', () => {
    const own = report.voices[0]?.figures.probability.melville?.all as number;
    expect(own).toBeGreaterThan(report.asGiven.probability.melville?.all as number);
  });

  it('predicts the writer’s held-out text better than the base model', () => {
    expect(report.voices[0]?.perplexityDrop).toBeGreaterThan(0);
  });
});
