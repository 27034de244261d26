// Builds the tiny house model: a llama-architecture GGUF with a byte-level BPE tokenizer,
// pretrained from scratch by our own trainer on the public-domain texts in corpus/. It lets
// OwnVoice run and be tested with no download. Deterministic: fixed seeds, fixed data order.
//
//   1. train a BPE vocabulary on the corpus
//   2. write the initial model (random weights + tokenizer) as GGUF
//   3. tokenise the corpus with llama.cpp through that file (so training sees the exact tokens
//      inference will), cut it into fixed-length sequences, hold some out
//   4. train every weight (mode "full"), then write the final GGUF
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSafetensors } from '../adapters/safetensors.js';
import type { ModelHparams } from '../gguf/model-spec.js';
import { GgmlType } from '../gguf/types.js';
import { initialWeights, writeLlamaGguf } from '../model/llama-gguf.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { trainBpe } from '../tokenizer/bpe-trainer.js';
import { END_OF_TEXT, HOUSE_SPECIAL_TOKENS, tokenizerKv } from '../tokenizer/gguf-tokenizer.js';
import { type TrainingExample, type TrainProgress, train } from '../trainer/train.js';
import { CORPUS_DIR, HOUSE_MODEL_PATH } from './paths.js';

export const CORPUS_FILES = ['kjv.txt', 'jargon.txt'];

export const HOUSE_MODEL_SHAPE = {
  vocab: 2048,
  nLayer: 4,
  nEmbd: 128,
  nFf: 384,
  nHead: 4,
  nHeadKv: 2,
  nCtx: 1024,
} as const;

export interface BuildOptions {
  outPath?: string;
  workDir: string;
  steps?: number;
  seqLen?: number;
  batchSize?: number;
  lr?: number;
  threads?: number;
  log?: (line: string) => void;
  onProgress?: (p: TrainProgress) => void;
}

export async function buildHouseModel(opts: BuildOptions): Promise<{ path: string; evalLoss?: number }> {
  const log = opts.log ?? (() => {});
  const corpus = CORPUS_FILES.map((f) => readFileSync(path.join(CORPUS_DIR, f), 'utf8'));
  const s = HOUSE_MODEL_SHAPE;

  log(`training a ${s.vocab}-token BPE vocabulary on ${corpus.reduce((a, c) => a + c.length, 0)} characters`);
  const vocab = trainBpe(corpus.join('\n\n'), s.vocab, HOUSE_SPECIAL_TOKENS);
  const h: ModelHparams = {
    arch: 'llama',
    nLayer: s.nLayer,
    nEmbd: s.nEmbd,
    nFf: s.nFf,
    nHead: s.nHead,
    nHeadKv: s.nHeadKv,
    headDim: s.nEmbd / s.nHead,
    nVocab: vocab.tokens.length,
    nCtx: s.nCtx,
    rmsEps: 1e-5,
    ropeBase: 10000,
    tiedOutput: true,
  };
  const initPath = path.join(opts.workDir, 'init.gguf');
  const tokKv = tokenizerKv(vocab);
  writeLlamaGguf(initPath, h, initialWeights(h, 1234), tokKv, { name: 'ownvoice-tiny' });

  log('tokenising the corpus with llama.cpp');
  const runtime = await LlamaRuntime.load({ modelPath: initPath, ...(opts.threads ? { threads: opts.threads } : {}) });
  const eot = vocab.tokens.indexOf(END_OF_TEXT);
  const seqLen = opts.seqLen ?? 128;
  const sequences: number[][] = [];
  try {
    for (const text of corpus) {
      // Documents are separated by end-of-text, as in most pretraining.
      const ids = [...text.split(/\n{2,}/).flatMap((para) => [...runtime.tokenize(`${para}\n\n`)]), eot];
      for (let i = 0; i + seqLen <= ids.length; i += seqLen) sequences.push(ids.slice(i, i + seqLen));
    }
  } finally {
    await runtime.dispose();
  }
  // Every 50th sequence is held out: spread over both texts, the same on every build.
  const examples: TrainingExample[] = [];
  const heldOut: TrainingExample[] = [];
  for (const [i, seq] of sequences.entries()) (i % 50 === 25 ? heldOut : examples).push({ input: [], target: seq });
  log(`${examples.length} training and ${heldOut.length} held-out sequences of ${seqLen} tokens`);

  const result = await train({
    mode: 'full',
    modelPath: initPath,
    workDir: opts.workDir,
    train: examples,
    eval: heldOut,
    preset: {
      rank: 0,
      alpha: 0,
      targets: [],
      lr: opts.lr ?? 3e-3,
      epochs: 100,
      seqLen,
      batchSize: opts.batchSize ?? 16,
      warmupSteps: 50,
      gradCheckpointing: false,
    },
    padId: eot,
    seed: 1234,
    maxSteps: opts.steps ?? 1500,
    checkpointEvery: 100,
    ...(opts.threads ? { threads: opts.threads } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  if (!result.weightsPath) throw new Error('the trainer returned no weights');
  const { tensors } = readSafetensors(result.weightsPath);
  const weights = new Map([...tensors].map(([name, t]) => [name, t.data]));
  const outPath = opts.outPath ?? HOUSE_MODEL_PATH;
  writeLlamaGguf(outPath, h, weights, tokKv, { name: 'ownvoice-tiny', matrixType: GgmlType.F16 });
  log(`wrote ${outPath} (held-out loss ${result.evalLoss?.toFixed(3)})`);
  return { path: outPath, ...(result.evalLoss !== undefined ? { evalLoss: result.evalLoss } : {}) };
}
