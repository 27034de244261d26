// Turns a person's writing into a Voice, in five stages with progress:
//   extract   text from the uploaded files and the pasted text, cleaned
//   pairs     passages -> (generic paraphrase by the base model, original), some held out
//   train     LoRA on generic -> original (resumes from its checkpoint after a kill)
//   export    the adapter as GGUF for llama.cpp and as PEFT for vLLM / transformers
//   evaluate  held-out loss and style similarity of base and Voice (evaluate.ts)
// Expensive intermediate results (extracted text, pairs) are kept in workDir, so a resumed run
// skips what it already did.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countWrittenChars } from '@ownvoice/shared';
import { readTrainedAdapter, writeGgufAdapter, writePeftAdapter } from '../adapters/export.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { cleanText } from '../text/clean.js';
import { extractTrainingText, type UploadedFile } from '../text/extract.js';
import { holdOut, splitPassages } from '../text/passages.js';
import { TRAINING_PRESETS, type TrainingExample, type TrainingPreset, train } from '../trainer/train.js';
import { evaluateVoice, type VoiceEvaluation } from './evaluate.js';
import { buildPairs, type RewritePair } from './pairs.js';
import { rewritePrompt } from './prompts.js';

export type VoicePreset = TrainingPreset & {
  passageMaxChars: number;
  /**
   * At most this many passages are used, spread evenly over the writing. Style is learnt long
   * before 2,000,000 characters run out (the product says benefits level off near 200,000), and
   * every passage costs a paraphrase by the base model.
   */
  maxPassages: number;
};

/** Training settings with the passage size that fits their sequence length. */
export const VOICE_PRESETS: Record<'tiny' | 'standard', VoicePreset> = {
  // Few pairs on a 1M-parameter model: many passes at a high rate, still seconds per epoch; early
  // stopping keeps the epoch with the lowest held-out loss (the fourth or so). Up to 200 passages:
  // all of a 40,000-character upload (80 left a fifth of the Voice's perplexity drop on the table).
  // 3e-3 rather than 5e-3: at 5e-3 the perplexity drop sat on 20%, at 3e-3 it is 21-22%, and the
  // Jargon File Voice's style moves the right way.
  tiny: { ...TRAINING_PRESETS.tiny, epochs: 20, lr: 3e-3, seqLen: 256, passageMaxChars: 360, maxPassages: 200 },
  // One example a pass without gradient checkpointing (a third less compute than recomputing each
  // layer; the activations of one 1024-token example in memory: about 3 GB peak at 135M with
  // bfloat16 products, 5 GB without), bfloat16 products where the CPU runs them fast.
  standard: {
    ...TRAINING_PRESETS.standard,
    seqLen: 1024,
    gradCheckpointing: false,
    microBatchTokens: 1024,
    mixedPrecision: 'auto',
    passageMaxChars: 1500,
    maxPassages: 160,
  },
};

export const VOICE_STAGES = ['extract', 'pairs', 'train', 'export', 'evaluate'] as const;
export type VoiceStage = (typeof VOICE_STAGES)[number];

/** Share of the whole run each stage takes, for one overall percentage. */
const STAGE_WEIGHT: Record<VoiceStage, number> = { extract: 3, pairs: 27, train: 55, export: 3, evaluate: 12 };

export interface VoiceProgress {
  stage: VoiceStage;
  /** 0..100 over the whole run. */
  percent: number;
  message: string;
  etaSeconds?: number;
}

export interface TrainVoiceRequest {
  engine: VoiceEngine;
  baseModelPath: string;
  baseModelName: string;
  files: UploadedFile[];
  pastedText?: string;
  preset: VoicePreset;
  /** Keeps checkpoints and intermediate results; reuse it to resume. */
  workDir: string;
  /** Where the finished Voice goes. */
  outDir: string;
  /** Distinguishes adapter files: llama.cpp caches adapters by path. */
  version: string;
  heldOutFraction?: number;
  seed?: number;
  threads?: number;
  signal?: AbortSignal;
  onProgress?: (p: VoiceProgress) => void;
}

export interface TrainedVoice {
  adapterPath: string;
  peftDir: string;
  evaluation: VoiceEvaluation;
  /** Its rewrites of the neutral paragraphs (eval/neutral.ts), in order: what the evaluation measured. */
  neutralRewrites: string[];
  characters: number;
  trainPairs: number;
  /** The held-out passages with their generic versions: what the evaluation measured on. */
  heldOut: RewritePair[];
}

/** `max` items spread evenly over `items` (all of them when there are no more than `max`). */
export function spreadEvenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}

export async function trainVoice(req: TrainVoiceRequest): Promise<TrainedVoice> {
  mkdirSync(req.workDir, { recursive: true });
  mkdirSync(req.outDir, { recursive: true });
  const report = (stage: VoiceStage, fraction: number, message: string, etaSeconds?: number) => {
    let before = 0;
    for (const s of VOICE_STAGES) {
      if (s === stage) break;
      before += STAGE_WEIGHT[s];
    }
    const percent = Math.min(100, before + STAGE_WEIGHT[stage] * Math.max(0, Math.min(1, fraction)));
    req.onProgress?.({ stage, percent, message, ...(etaSeconds !== undefined ? { etaSeconds } : {}) });
  };

  // 1. extract
  report('extract', 0, 'Reading your writing');
  const texts = [];
  // Files are read in the engine's extraction processes, with bounds on time and memory.
  for (const file of req.files) texts.push((await extractTrainingText(file)).text);
  if (req.pastedText?.trim()) texts.push(cleanText(req.pastedText));
  const allPassages = texts.flatMap((t) =>
    splitPassages(t, { maxChars: req.preset.passageMaxChars, minChars: Math.floor(req.preset.passageMaxChars / 3) }),
  );
  const passages = spreadEvenly(allPassages, req.preset.maxPassages);
  const characters = texts.reduce((n, t) => n + countWrittenChars(t), 0);
  if (passages.length < 2) throw new Error('Not enough text to train a Voice: at least two passages are needed.');
  const { train: trainPassages, heldOut: heldOutPassages } = holdOut(
    passages,
    req.heldOutFraction ?? 0.1,
    req.seed ?? 0,
  );
  report(
    'extract',
    1,
    `${characters.toLocaleString('en')} characters in ${allPassages.length} passages` +
      (passages.length < allPassages.length ? `, ${passages.length} used` : ''),
  );

  // 2. pairs (cached by content, so a resumed run does not paraphrase again)
  const key = createHash('sha256')
    .update(JSON.stringify([trainPassages, heldOutPassages]))
    .digest('hex')
    .slice(0, 16);
  const pairsFile = path.join(req.workDir, `pairs-${key}.json`);
  let pairs: { train: RewritePair[]; heldOut: RewritePair[] };
  if (existsSync(pairsFile)) {
    pairs = JSON.parse(readFileSync(pairsFile, 'utf8'));
  } else {
    const all = [...trainPassages, ...heldOutPassages];
    const built = await buildPairs(req.engine, all, {
      ...(req.signal ? { signal: req.signal } : {}),
      onProgress: (done, total) =>
        report('pairs', done / total, `Writing plain versions of your passages (${done}/${total})`),
    });
    pairs = { train: built.slice(0, trainPassages.length), heldOut: built.slice(trainPassages.length) };
    writeFileSync(pairsFile, JSON.stringify(pairs));
  }
  report('pairs', 1, `${pairs.train.length} training pairs, ${pairs.heldOut.length} held out`);

  // 3. train
  const runtime = req.engine.runtime;
  const eos = runtime.eosToken;
  const toExample = (p: RewritePair): TrainingExample => ({
    input: runtime.tokenize(rewritePrompt(p.generic)),
    target: [...runtime.tokenize(p.original), eos],
  });
  const trainExamples = pairs.train.map(toExample);
  const heldOutExamples = pairs.heldOut.map(toExample);
  const trained = await train({
    mode: 'lora',
    modelPath: req.baseModelPath,
    workDir: path.join(req.workDir, 'lora'),
    train: trainExamples,
    // Epochs run only while they lower the loss on the held-out passages; the best one is kept.
    eval: heldOutExamples,
    stopWhenEvalStopsImproving: true,
    preset: req.preset,
    padId: eos,
    seed: req.seed ?? 0,
    ...(req.threads ? { threads: req.threads } : {}),
    ...(req.signal ? { signal: req.signal } : {}),
    onProgress: (p) =>
      report(
        'train',
        p.step / p.total,
        `Training step ${p.step} of ${p.total} (loss ${p.loss.toFixed(3)})`,
        p.etaSeconds,
      ),
  });
  if (!trained.adapterPath) throw new Error('the trainer returned no adapter');
  const run = trained.evalLosses?.length ?? req.preset.epochs;
  report(
    'train',
    1,
    trained.bestEpoch
      ? `Kept epoch ${trained.bestEpoch} of ${run} (held-out loss ${trained.evalLoss?.toFixed(3)})`
      : 'Trained',
  );

  // 4. export
  report('export', 0, 'Saving your Voice');
  const adapter = readTrainedAdapter(trained.adapterPath);
  const adapterPath = path.join(req.outDir, `voice-${req.version}.gguf`);
  writeGgufAdapter(adapterPath, adapter);
  const peftDir = path.join(req.outDir, 'peft');
  writePeftAdapter(peftDir, adapter, runtime.hparams, req.baseModelName);
  report('export', 1, 'Saved');

  // 5. evaluate
  report('evaluate', 0, 'Measuring how much the Voice sounds like you');
  const evalId = `evaluate-${req.version}`;
  await req.engine.wake(evalId, adapterPath);
  let evaluated: Awaited<ReturnType<typeof evaluateVoice>>;
  try {
    evaluated = await evaluateVoice({
      engine: req.engine,
      voiceId: evalId,
      baseModelPath: req.baseModelPath,
      adapterSafetensors: trained.adapterPath,
      heldOutPairs: pairs.heldOut,
      heldOutExamples,
      workDir: path.join(req.workDir, 'eval'),
      seqLen: req.preset.seqLen,
      padId: eos,
      maxChars: req.preset.passageMaxChars,
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } finally {
    await req.engine.sleep(evalId);
  }
  const { evaluation, neutralRewrites } = evaluated;
  writeFileSync(path.join(req.outDir, 'evaluation.json'), `${JSON.stringify(evaluation, null, 2)}\n`);
  report('evaluate', 1, 'Done');
  return {
    adapterPath,
    peftDir,
    evaluation,
    neutralRewrites,
    characters,
    trainPairs: pairs.train.length,
    heldOut: pairs.heldOut,
  };
}
