// Builds the tiny house model: a llama-architecture GGUF with a byte-level BPE tokenizer,
// pretrained from scratch by our own trainer on the public-domain texts in corpus/. It lets
// OwnVoice run and be tested with no download. Deterministic: fixed seeds, fixed data order.
//
//   1. train a BPE vocabulary on the corpus (less each author's reserved slice: authors.ts)
//   2. write the initial model (random weights + tokenizer + ChatML template) as GGUF
//   3. make the training data, tokenised by llama.cpp through that file so training sees the
//      exact tokens inference will:
//        language modelling   the corpus in fixed-length sequences
//        paraphrase           the engine's paraphrase chat of a passage -> its plain version
//        rewrite              the Voice's rewrite prompt of the plain version -> the passage
//      The plain versions come from the deterministic plainer (plainer.ts). With the two
//      tasks the house model does what an instruct model does for a Voice: its paraphrases keep a
//      passage's content, and a rewrite prompt is answered with the content in a writer's words.
//   4. train every weight (mode "full") with some of each kind held out, then write the GGUF
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readSafetensors } from '../adapters/safetensors.js';
import { HOUSE_AUTHORS, houseTrainingText } from '../corpus/authors.js';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { initialWeights, writeLlamaGguf } from '../gguf/llama-model.js';
import type { ModelHparams } from '../gguf/model-spec.js';
import { GgmlType } from '../gguf/types.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { splitPassages } from '../text/passages.js';
import { trainBpe } from '../tokenizer/bpe-trainer.js';
import { END_OF_TEXT, HOUSE_SPECIAL_TOKENS, tokenizerKv } from '../tokenizer/gguf-tokenizer.js';
import { type TrainingExample, type TrainProgress, train } from '../trainer/train.js';
import { paraphraseChat, rewritePrompt } from '../voice/prompts.js';
import { plainText } from './plainer.js';

export const HOUSE_MODEL_SHAPE = {
  vocab: 2048,
  nLayer: 4,
  nEmbd: 128,
  nFf: 384,
  nHead: 4,
  nHeadKv: 2,
  nCtx: 1024,
} as const;

/**
 * Passage sizes of the two tasks: those of the tiny Voice preset, so a Voice trained on the house
 * model sees pairs of the size the house model learnt the tasks on.
 */
export const HOUSE_TASK_PASSAGES = { maxChars: 360, minChars: 120 } as const;

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

/** Every 50th example of each kind is held out: the same on every build. */
const isHeldOut = (i: number) => i % 50 === 25;

export async function buildHouseModel(opts: BuildOptions): Promise<{ path: string; evalLoss?: number }> {
  const log = opts.log ?? (() => {});
  mkdirSync(opts.workDir, { recursive: true });
  const corpus = HOUSE_AUTHORS.map(houseTrainingText);
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

  log('making the training data, tokenised by llama.cpp');
  const runtime = await LlamaRuntime.load({ modelPath: initPath, ...(opts.threads ? { threads: opts.threads } : {}) });
  const seqLen = opts.seqLen ?? 256;
  let data: { language: TrainingExample[]; tasks: TrainingExample[] };
  try {
    data = trainingData(runtime, corpus, vocab.tokens.indexOf(END_OF_TEXT), seqLen);
  } finally {
    await runtime.dispose();
  }
  const examples: TrainingExample[] = [];
  const heldOut: TrainingExample[] = [];
  for (const kind of [data.language, data.tasks]) {
    for (const [i, ex] of kind.entries()) (isHeldOut(i) ? heldOut : examples).push(ex);
  }
  log(
    `${data.language.length} language-modelling sequences and ${data.tasks.length} paraphrase and rewrite ` +
      `examples; ${heldOut.length} held out`,
  );

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
    padId: vocab.tokens.indexOf(END_OF_TEXT),
    seed: 1234,
    maxSteps: opts.steps ?? 4000,
    checkpointEvery: 200,
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

/** The three kinds of example (see the top of the file), the tasks interleaved passage by passage. */
function trainingData(runtime: LlamaRuntime, corpus: readonly string[], eot: number, seqLen: number) {
  const eos = runtime.eosToken;
  const language: TrainingExample[] = [];
  const tasks: TrainingExample[] = [];
  for (const text of corpus) {
    // Documents are separated by end-of-text, as in most pretraining.
    const ids = [...text.split(/\n{2,}/).flatMap((para) => runtime.tokenize(`${para}\n\n`)), eot];
    for (let i = 0; i + seqLen <= ids.length; i += seqLen)
      language.push({ input: [], target: ids.slice(i, i + seqLen) });
    for (const passage of splitPassages(text, HOUSE_TASK_PASSAGES)) {
      const plain = plainText(passage);
      if (!plain) continue;
      tasks.push(
        {
          input: runtime.chatPromptTokens(paraphraseChat(passage, 'house')),
          target: [...runtime.tokenize(plain), eos],
        },
        { input: runtime.tokenize(rewritePrompt(plain)), target: [...runtime.tokenize(passage), eos] },
      );
    }
  }
  return { language, tasks };
}
