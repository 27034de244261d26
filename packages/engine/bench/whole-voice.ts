// A whole Voice, end to end, as a person waits for it: trainVoice on some writing on a model,
// timing each stage from trainVoice's own progress events (measureWholeVoice). The bench's
// section 4 runs it on 40,000 characters of one author on a SmolLM2-135M-shaped model (random
// weights) with a realistic tokenizer, built here; section 6 on the real SmolLM2-135M-Instruct
// (real-model.ts). Not a test: the figures depend on the machine.
//
// The tokenizer is a byte-level BPE trained on the corpus without the Voice's text, so that text
// takes about as many tokens as under a real model's vocabulary; the vocabulary is padded to
// SmolLM2's 49152 tokens. The matrices are Q8_0, the type of the default base model's file
// (base-model.ts), because llama.cpp's speed depends on it: on two cores it reads 16 paraphrase
// prompts in 17 s from Q8_0 against 20 s from F16. The trainer dequantizes either to float32.
// The vocabulary is learnt once per machine (BENCH_MODEL_DIR), named by a hash of the text it
// learnt from, so a changed corpus learns a new one; each model file carries the same name.
//
//   npx tsx packages/engine/bench/whole-voice.ts --once [threads]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS_DIR } from '../src/corpus/paths.js';
import { randomWeights, writeLlamaGguf } from '../src/gguf/llama-model.js';
import type { ModelHparams } from '../src/gguf/model-spec.js';
import { GgmlType, ggmlTypeName } from '../src/gguf/types.js';
import { VoiceEngine } from '../src/runtime/voice-engine.js';
import { type BpeVocabulary, trainBpe } from '../src/tokenizer/bpe-trainer.js';
import { HOUSE_SPECIAL_TOKENS, tokenizerKv } from '../src/tokenizer/gguf-tokenizer.js';
import {
  trainVoice,
  VOICE_PRESETS,
  VOICE_STAGES,
  type VoicePreset,
  type VoiceStage,
} from '../src/voice/train-voice.js';

/** SmolLM2-135M's shape (random weights): 30 layers, 576 wide, 9 heads / 3 kv heads, 49152 tokens. */
export const SMOLLM2_135M: ModelHparams = {
  arch: 'llama',
  nLayer: 30,
  nEmbd: 576,
  nFf: 1536,
  nHead: 9,
  nHeadKv: 3,
  headDim: 64,
  nVocab: 49152,
  nCtx: 2048,
  rmsEps: 1e-5,
  ropeBase: 10000,
  tiedOutput: true,
};

/** SmolLM2-360M's shape, the default base model's (random weights): 32 layers, 960 wide, 15 heads / 5 kv heads. */
export const SMOLLM2_360M: ModelHparams = {
  ...SMOLLM2_135M,
  nLayer: 32,
  nEmbd: 960,
  nFf: 2560,
  nHead: 15,
  nHeadKv: 5,
};

/**
 * Tokens learnt on the corpus: 12288 give 4.05 characters a token on the Voice's held-out text
 * (8192 give 3.8). trainBpe takes about four minutes for them on one core, once per workDir.
 */
export const BENCH_BPE_VOCAB = 12288;
/** Characters of writing the Voice learns from. */
export const VOICE_CHARS = 40_000;

/** The default base model's matrix type (DEFAULT_BASE_MODEL is a Q8_0 file). */
export const BENCH_MATRIX_TYPE = GgmlType.Q8_0;

/** Where the bench model is kept between runs: its tokenizer takes minutes to learn. */
export const BENCH_MODEL_DIR = path.join(tmpdir(), 'ownvoice-whole-voice');

/** VOICE_CHARS characters of the Jargon File from its middle, cut at paragraph ends, and the corpus without them. */
export function voiceText(): { voice: string; rest: string } {
  const kjv = readFileSync(path.join(CORPUS_DIR, 'kjv.txt'), 'utf8');
  const jargon = readFileSync(path.join(CORPUS_DIR, 'jargon.txt'), 'utf8');
  const start = jargon.indexOf('\n\n', Math.floor(jargon.length / 2)) + 2;
  const end = jargon.lastIndexOf('\n\n', start + VOICE_CHARS);
  return { voice: jargon.slice(start, end), rest: `${kjv}\n\n${jargon.slice(0, start)}${jargon.slice(end)}` };
}

/**
 * The corpus's BPE vocabulary (without the Voice's text), learnt once into `dir` and kept there as
 * JSON, named by a hash of the text it learnt from, so a changed corpus learns a new one.
 */
export function benchVocabulary(
  dir: string,
  log: (l: string) => void = () => {},
): { vocab: BpeVocabulary; key: string } {
  const { rest } = voiceText();
  const key = createHash('sha256').update(rest).digest('hex').slice(0, 8);
  const file = path.join(dir, `bpe${BENCH_BPE_VOCAB}-${key}.json`);
  if (existsSync(file)) return { vocab: JSON.parse(readFileSync(file, 'utf8')) as BpeVocabulary, key };
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const vocab = trainBpe(rest, BENCH_BPE_VOCAB, HOUSE_SPECIAL_TOKENS);
  log(`BPE: ${vocab.tokens.length} tokens learnt in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  writeFileSync(`${file}.tmp`, JSON.stringify(vocab));
  renameSync(`${file}.tmp`, file);
  return { vocab, key };
}

/**
 * A bench model of `shape` (random weights) with the corpus's vocabulary, built once into `dir`.
 * The vocabulary is padded to the shape's; the padding tokens get zero embeddings: with the output
 * tied to the embedding their logits are exactly 0, below the best real token's, so greedy
 * generation writes real text as a trained model would.
 */
function benchModelOf(dir: string, name: string, shape: ModelHparams, log: (l: string) => void): string {
  const { vocab, key } = benchVocabulary(dir, log);
  const type = ggmlTypeName(BENCH_MATRIX_TYPE).toLowerCase();
  const file = path.join(dir, `${name}-bpe${BENCH_BPE_VOCAB}-${key}-${type}.gguf`);
  if (existsSync(file)) return file;
  const tokens = [...vocab.tokens];
  for (let i = 0; tokens.length < shape.nVocab; i++) tokens.push(`<pad${i}>`);
  const weights = randomWeights(shape, 7, 0.02);
  (weights.get('token_embd.weight') as Float32Array).fill(0, vocab.tokens.length * shape.nEmbd);
  const tmp = `${file}.tmp`;
  writeLlamaGguf(tmp, shape, weights, tokenizerKv({ ...vocab, tokens }), { matrixType: BENCH_MATRIX_TYPE });
  renameSync(tmp, file);
  return file;
}

/** The bench model at SmolLM2-135M's shape. */
export const benchModel = (dir: string, log: (l: string) => void = () => {}): string =>
  benchModelOf(dir, 'smollm2-135m-shape', SMOLLM2_135M, log);

/** A model a whole Voice is trained on: its file, and the name its PEFT export records. */
export interface WholeVoiceModel {
  path: string;
  name: string;
}

/** The bench model at SmolLM2-135M's shape, as measureWholeVoice takes it. */
export const benchVoiceModel = (dir: string, log: (l: string) => void = () => {}): WholeVoiceModel => ({
  path: benchModel(dir, log),
  name: 'smollm2-135m-shape',
});

/** The bench model at 360M's shape, the default model's: how much slower each stage runs there. */
export const benchModel360 = (dir: string, log: (l: string) => void = () => {}): string =>
  benchModelOf(dir, 'smollm2-360m-shape', SMOLLM2_360M, log);

export interface WholeVoiceResult {
  totalSeconds: number;
  /** Seconds each stage took, from the previous stage's last progress report to its own. */
  stages: Record<VoiceStage, number>;
  characters: number;
  /** Passages paraphrased, and those of them the Voice trained on (the rest held out). */
  passages: number;
  trainPairs: number;
  /** Tokens per character of the Voice's text under the model's tokenizer (about 0.25 for English). */
  tokensPerChar?: number;
  /** The finished Voice's adapter, when it was kept (keepVoiceIn). */
  adapterPath?: string;
}

export interface WholeVoiceRun {
  model: WholeVoiceModel;
  /** The writing the Voice learns from. */
  text: string;
  preset: VoicePreset;
  threads: number;
  /** Each run's files go in a folder made here, removed after the run. */
  workDir: string;
  /** Where the finished Voice goes and stays (say, to rewrite with it next); removed with the run when absent. */
  keepVoiceIn?: string;
  log?: (l: string) => void;
}

/** Section 4's run: the 135M-shaped house-vocabulary model on the bench's 40,000 characters, standard preset. */
export const houseShapeRun = (threads: number, log: (l: string) => void): WholeVoiceRun => ({
  model: benchVoiceModel(BENCH_MODEL_DIR, log),
  text: voiceText().voice,
  preset: VOICE_PRESETS.standard,
  threads,
  workDir: BENCH_MODEL_DIR,
  log,
});

/** One whole Voice from `text` on `model`, as trainVoice builds it for a person, each stage timed. */
export async function measureWholeVoice(opts: WholeVoiceRun): Promise<WholeVoiceResult> {
  const log = opts.log ?? (() => {});
  const { model, text: voice } = opts;
  const engine = await VoiceEngine.start({ modelPath: model.path, threads: opts.threads });
  mkdirSync(opts.workDir, { recursive: true });
  const runDir = mkdtempSync(path.join(opts.workDir, 'voice-'));
  try {
    const tokensPerChar = engine.runtime.tokenize(voice).length / voice.length;
    // trainVoice reports each stage's end (fraction 1) as it happens, and a stage's first report
    // can come well after its work began (pairs reports its first finished paraphrase): so each
    // stage runs from the previous stage's last report to its own.
    const lastSeen = new Map<VoiceStage, { at: number; message: string }>();
    const started = performance.now();
    const trained = await trainVoice({
      engine,
      baseModelPath: model.path,
      baseModelName: model.name,
      files: [{ name: 'writing.txt', data: Buffer.from(voice) }],
      preset: opts.preset,
      workDir: path.join(runDir, 'work'),
      outDir: opts.keepVoiceIn ?? path.join(runDir, 'out'),
      version: 'v1',
      threads: opts.threads,
      onProgress: (p) => lastSeen.set(p.stage, { at: performance.now(), message: p.message }),
    });
    const ended = performance.now();
    const stages = {} as Record<VoiceStage, number>;
    let from = started;
    for (const stage of VOICE_STAGES) {
      const last = lastSeen.get(stage);
      const to = stage === 'evaluate' ? ended : (last?.at ?? from);
      stages[stage] = (to - from) / 1000;
      log(
        `${((to - started) / 1000).toFixed(1)} s: ${stage} took ${stages[stage].toFixed(1)} s: ${last?.message ?? ''}`,
      );
      from = to;
    }
    return {
      totalSeconds: (ended - started) / 1000,
      stages,
      characters: trained.characters,
      passages: trained.trainPairs + trained.heldOut.length,
      trainPairs: trained.trainPairs,
      tokensPerChar,
      ...(opts.keepVoiceIn ? { adapterPath: trained.adapterPath } : {}),
    };
  } finally {
    await engine.dispose();
    rmSync(runDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv.includes('--once')) {
  const threads = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? cpus().length);
  const log = (l: string) => console.log(l);
  const result = await measureWholeVoice(houseShapeRun(threads, log));
  console.log(JSON.stringify(result, null, 2));
}
