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
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { defaultThreads } from '../runtime/llama-runtime.js';
import { BATCH_SEQUENCES, type VoiceEngine } from '../runtime/voice-engine.js';
import { cleanText } from '../text/clean.js';
import { extractTrainingText, type UploadedFile } from '../text/extract.js';
import { holdOut, splitPassages, spreadEvenly } from '../text/passages.js';
import { findPython, settledPrecision, TrainerProcess } from '../trainer/python.js';
import { TRAINING_PRESETS, type TrainingExample, type TrainingPreset, train } from '../trainer/train.js';
import { EVALUATION_SAMPLES, evaluateVoice, evaluationParagraphs, type VoiceEvaluation } from './evaluate.js';
import { buildPairs, faithfulPairs, paraphraserFor, type RewritePair } from './pairs.js';
import { paraphraseChat, rewritePrompt } from './prompts.js';
import { RunPercent } from './run-percent.js';
import { type EstimatePriors, TrainingEstimate } from './training-estimate.js';

export type VoicePreset = TrainingPreset & {
  passageMaxChars: number;
  /**
   * At most this many passages are used, spread evenly over the writing. Style is learnt long
   * before 2,000,000 characters run out (the product says benefits level off near 200,000), and
   * every passage costs a paraphrase by the base model.
   */
  maxPassages: number;
  /**
   * How many of the neutral paragraphs the Voice's evaluation rewrites, spread over their
   * subjects (evaluate.ts); all of them when absent.
   */
  evaluationParagraphs?: number;
  /** What runs on this preset were measured to take: the time-left estimate's priors. */
  estimate: EstimatePriors;
};

/** Training settings with the passage size that fits their sequence length. */
export const VOICE_PRESETS: Record<'tiny' | 'standard', VoicePreset> = {
  // Few pairs on a 1M-parameter model: many passes at a high rate, still seconds per epoch; early
  // stopping keeps the epoch with the lowest held-out loss (the fourth or so). Up to 200 passages:
  // all of a 40,000-character upload (80 left a fifth of the Voice's perplexity drop on the table).
  // 3e-3 rather than 5e-3: at 5e-3 the perplexity drop sat on 20%, at 3e-3 it is 21-22%, and the
  // Jargon File Voice's style moves the right way. 2e-3 over 8 epochs rather than 3e-3 over 20: the
  // rate's cosine now falls by the epochs early stopping keeps (about the fifth), which lowers the
  // held-out loss (harness, PyTorch 1.13 and 2.13 alike: perplexity drop 22.3% and 22.4% where it
  // was 21.8% and 21.1%) and moves both Voices' style further from the base model's rewrites
  // (Delta 0.04 below them for each author, where it was 0.02). Rank 16, rank 4, alpha 8, 6 or 10
  // epochs, 2.5e-3 and shorter passages did no better; 384-token sequences (no Jargon File pair cut)
  // raise the Jargon File's drop to 31%, mostly on tokens past the 256 the house model learnt on.
  // Its runs on two cores (21,000, 40,000 and 120,000 characters, 2026-11-29) stopped after 7, 3
  // and 5 epochs (3 stops in the 12 epochs from the second on that could have ended them: a
  // chance of 0.25 each), a step took 2.65 to 2.96 times as long as a paraphrase (once the chat
  // template was resolved once, not per paraphrase), and the trainer started in 1.9 to 2.6 s, its
  // base-model loss included: the estimate's priors (training-estimate.ts;
  // training-estimate.recorded.ts holds the three runs; decision 39).
  tiny: {
    ...TRAINING_PRESETS.tiny,
    epochs: 8,
    lr: 2e-3,
    seqLen: 256,
    passageMaxChars: 360,
    maxPassages: 200,
    estimate: { lastEpochChance: 0.25, stepPerPair: 2.8, trainerStartSeconds: 2.2 },
  },
  // On the CPU one example a pass without gradient checkpointing (a third less compute than
  // recomputing each layer; the activations of one 1024-token example in memory: about 3 GB peak
  // at 135M with bfloat16 products, 5 GB without). On a GPU as many tokens a pass as its memory
  // holds, measured by the trainer: the whole batch on a large card. bfloat16 products where the
  // device runs them fast.
  //
  // Measured on the real SmolLM2-135M-Instruct (decision 32): a rate of 1e-3, not the 2e-4 of
  // full-size fine-tuning, since a Voice from a small upload trains for a few dozen steps (at 2e-4
  // its rewrites were the base model's, which drifts from what it is given: content-word recall
  // 0.30 where 1e-3 kept 0.94 to 1.00); passages of a paragraph or two, since a small model's
  // paraphrase of 1,500 characters kept a median 0.28 of the passage's content words and often
  // merged or dropped paragraphs; with them 512-token sequences hold a pair.
  standard: {
    ...TRAINING_PRESETS.standard,
    lr: 1e-3,
    seqLen: 512,
    gradCheckpointing: false,
    microBatchTokens: 'auto',
    mixedPrecision: 'auto',
    passageMaxChars: 700,
    maxPassages: 160,
    // Half the neutral paragraphs, every other one: on the house model's two Voices the product's
    // measure kept its direction and order (Voice < base < the paragraphs as given, Delta to the
    // person's held-out writing) on 14 as on 28, with a spread up to a quarter wider, for a quarter less
    // of the evaluation's time on two cores (decision 25).
    evaluationParagraphs: 14,
    // Two epochs run whether or not the second improves (the first cannot be the last), so the
    // chance that an epoch is the last never counts here; the tiny preset's is the one measured,
    // should the epochs grow. No measured step-to-pair ratio on a real model: the estimate waits
    // for the trainer's own pace.
    estimate: { lastEpochChance: 0.25 },
  },
};

export type VoicePresetName = keyof typeof VOICE_PRESETS;

/**
 * The preset a Voice trains with: the one asked for (OWNVOICE_TRAIN_PRESET), else `tiny` on the
 * house model and `standard` on a real one. The server, the command line and the bench all ask here.
 */
export const presetNameFor = (isHouse: boolean, asked?: string): VoicePresetName => {
  const name = asked ?? (isHouse ? 'tiny' : 'standard');
  if (!(name in VOICE_PRESETS))
    throw new Error(`unknown preset ${name}; use ${Object.keys(VOICE_PRESETS).join(' or ')}`);
  return name as VoicePresetName;
};

export const VOICE_STAGES = ['extract', 'pairs', 'train', 'export', 'evaluate'] as const;

export type VoiceStage = (typeof VOICE_STAGES)[number];

export interface VoiceProgress {
  stage: VoiceStage;
  /** 0..100 over the whole run. */
  percent: number;
  message: string;
  /**
   * Seconds left in the whole run, from this run's measured pace (training-estimate.ts); absent
   * until there is one.
   */
  etaSeconds?: number;
  /** The stage's units done and in all (pairs made, training steps), where it counts them. */
  step?: number;
  totalSteps?: number;
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
  /**
   * Where the base model paraphrases the passages: 'trainer' decodes them in batches in PyTorch,
   * which pays on a GPU and in bfloat16 on a CPU that runs it fast; 'engine' is llama.cpp. By
   * default the trainer where it has CUDA, or fast bfloat16 on the CPU and a preset that takes it.
   */
  paraphraseOn?: 'engine' | 'trainer';
  /** The time in milliseconds, for the estimate of the time left (Date.now unless given). */
  now?: () => number;
  /**
   * The base model's rewrites of the evaluation's paragraphs, when already made (the harness's
   * Voices share one base model): the evaluation reads the Voice's against them instead of
   * rewriting the paragraphs with the base model again.
   */
  baseRewrites?: readonly string[];
}

export interface TrainedVoice {
  adapterPath: string;
  peftDir: string;
  evaluation: VoiceEvaluation;
  /** Its rewrites of the neutral paragraphs its evaluation rewrote (evaluationParagraphs), in order. */
  neutralRewrites: string[];
  /** The plain base model's rewrites of the same paragraphs, which its evaluation read them against. */
  baseRewrites: string[];
  characters: number;
  trainPairs: number;
  /** The held-out passages with their generic versions: what the evaluation measured on. */
  heldOut: RewritePair[];
}

export async function trainVoice(req: TrainVoiceRequest): Promise<TrainedVoice> {
  mkdirSync(req.workDir, { recursive: true });
  mkdirSync(req.outDir, { recursive: true });
  const now = req.now ?? Date.now;
  // Made once the writing is read and the run's sizes are known.
  let estimate: TrainingEstimate | undefined;
  const percent = new RunPercent();
  const emit = (
    stage: VoiceStage,
    shown: number,
    message: string,
    etaSeconds: number | undefined,
    units?: { done: number; total: number },
  ) =>
    req.onProgress?.({
      stage,
      percent: shown,
      message,
      ...(etaSeconds !== undefined ? { etaSeconds } : {}),
      ...(units ? { step: units.done, totalSteps: units.total } : {}),
    });
  const report = (stage: VoiceStage, fraction: number, message: string, units?: { done: number; total: number }) => {
    const etaSeconds = estimate?.observe({ stage, at: now(), ...units });
    emit(stage, percent.at(stage, fraction), message, etaSeconds, units);
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
  // The house model keeps the paraphrase prompt it learnt on; a real model gets the instruct one.
  const prompt = req.baseModelPath === HOUSE_MODEL_PATH ? 'house' : 'instruct';
  const key = createHash('sha256')
    .update(JSON.stringify([trainPassages, heldOutPassages, paraphraseChat('', prompt)]))
    .digest('hex')
    .slice(0, 16);
  const pairsFile = path.join(req.workDir, `pairs-${key}.json`);
  const pairsCached = existsSync(pairsFile);
  const python = await findPython();
  const mixedPrecision = settledPrecision(req.preset.mixedPrecision ?? false, python);
  const onTrainer = (req.paraphraseOn ?? paraphraserFor(python, mixedPrecision)) === 'trainer';
  const sized = new TrainingEstimate(
    {
      pairs: pairsCached ? 0 : passages.length,
      // The engine decodes BATCH_SEQUENCES at a time, and its answers come in waves; the trainer
      // reports its progress as it decodes, not in waves.
      pairBatch: onTrainer ? 1 : BATCH_SEQUENCES,
      stepsPerEpoch: Math.ceil(trainPassages.length / req.preset.batchSize),
      epochs: req.preset.epochs,
      // evaluateVoice's rewrites: the neutral paragraphs and the samples.
      evaluationRewrites:
        evaluationParagraphs(req.preset.evaluationParagraphs).length +
        Math.min(EVALUATION_SAMPLES, heldOutPassages.length),
    },
    req.preset.estimate,
  );
  estimate = sized;
  // The trainer's paraphrases and the training after them run in one trainer process, which reads
  // the model once (on a GPU, starts CUDA once); it ends before the evaluation, which is llama.cpp's.
  const runtime = req.engine.runtime;
  // PyTorch's threads, by llama.cpp's rule unless asked: one on the house model, where a second
  // thread's waits cost more than its share (31.4 s and 65 s of CPU to train the King James Voice on
  // two threads, 27.9 s and 30 s on one, two quiet cores, 2026-12-08), one per core on a real model.
  const threads = req.threads ?? defaultThreads(runtime.hparams);
  const trainer = onTrainer && !pairsCached ? await TrainerProcess.open({ threads }) : undefined;
  let pairs: { train: RewritePair[]; heldOut: RewritePair[] };
  let trained: Awaited<ReturnType<typeof train>>;
  try {
    if (pairsCached) {
      pairs = JSON.parse(readFileSync(pairsFile, 'utf8'));
    } else {
      const all = [...trainPassages, ...heldOutPassages];
      report('pairs', 0, 'Writing plain versions of your passages');
      const built = await buildPairs(req.engine, all, {
        prompt,
        ...(req.signal ? { signal: req.signal } : {}),
        ...(onTrainer
          ? {
              trainer: {
                modelPath: req.baseModelPath,
                device: python.cuda ? ('cuda' as const) : ('cpu' as const),
                mixedPrecision,
                threads,
                ...(trainer ? { process: trainer } : {}),
              },
            }
          : {}),
        onProgress: (done, total) =>
          report('pairs', done / total, `Writing plain versions of your passages (${Math.floor(done)}/${total})`, {
            done,
            total,
          }),
      });
      pairs = { train: built.slice(0, trainPassages.length), heldOut: built.slice(trainPassages.length) };
      writeFileSync(pairsFile, JSON.stringify(pairs));
    }
    // A real model's paraphrases drift; the house model's were measured as they come.
    const faithful = prompt === 'instruct' ? faithfulPairs(pairs.train) : pairs.train;
    const dropped = pairs.train.length - faithful.length;
    pairs = { ...pairs, train: faithful };
    report(
      'pairs',
      1,
      `${pairs.train.length} training pairs, ${pairs.heldOut.length} held out` +
        (dropped ? ` (${dropped} whose plain version lost the passage's content left out)` : ''),
    );

    // 3. train
    const eos = runtime.eosToken;
    const toExample = (p: RewritePair): TrainingExample => ({
      input: runtime.tokenize(rewritePrompt(p.generic)),
      target: [...runtime.tokenize(p.original), eos],
    });
    const trainExamples = pairs.train.map(toExample);
    const heldOutExamples = pairs.heldOut.map(toExample);
    // The trainer's start counts from here, though its first report is its first step.
    sized.observe({ stage: 'train', at: now() });
    trained = await train({
      mode: 'lora',
      modelPath: req.baseModelPath,
      workDir: path.join(req.workDir, 'lora'),
      train: trainExamples,
      // Epochs run only while they lower the loss on the held-out passages; the best one is kept.
      eval: heldOutExamples,
      stopWhenEvalStopsImproving: true,
      // The evaluation's base loss, from the same process before it trains.
      measureBaseEvalLoss: true,
      preset: { ...req.preset, mixedPrecision },
      padId: eos,
      seed: req.seed ?? 0,
      threads,
      ...(trainer ? { trainer } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      onProgress: (p) => {
        const etaSeconds = sized.observe({ stage: 'train', at: now(), done: p.step, total: p.total });
        // Early stopping usually ends training well before the trainer's total: each step moves
        // the bar by its part of the steps expected from here.
        const message = `Training step ${p.step} of up to ${p.total} (loss ${p.loss.toFixed(3)})`;
        emit('train', percent.afterStep(p.step, sized.expectedStepsLeft(p.step)), message, etaSeconds, {
          done: p.step,
          total: p.total,
        });
      },
    });
  } finally {
    await trainer?.close();
  }
  if (!trained.adapterPath) throw new Error('the trainer returned no adapter');
  if (trained.evalLoss === undefined || trained.baseEvalLoss === undefined)
    throw new Error('the trainer measured no held-out loss');
  const heldOutLoss = {
    base: trained.baseEvalLoss,
    voice: trained.evalLoss,
    ...(trained.baseEvalExampleLosses && trained.evalExampleLosses
      ? { examples: { base: trained.baseEvalExampleLosses, voice: trained.evalExampleLosses } }
      : {}),
  };
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
  // Its rewrites all at once, spread over the engine's lanes: on two cores three times as fast.
  await req.engine.wake(evalId, adapterPath, { wide: true });
  let evaluated: Awaited<ReturnType<typeof evaluateVoice>>;
  try {
    evaluated = await evaluateVoice({
      engine: req.engine,
      voiceId: evalId,
      heldOutPairs: pairs.heldOut,
      heldOutLoss,
      maxChars: req.preset.passageMaxChars,
      paragraphs: req.preset.evaluationParagraphs,
      ...(req.baseRewrites ? { baseRewrites: req.baseRewrites } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } finally {
    await req.engine.sleep(evalId);
  }
  const { evaluation, neutralRewrites, baseRewrites } = evaluated;
  writeFileSync(path.join(req.outDir, 'evaluation.json'), `${JSON.stringify(evaluation, null, 2)}\n`);
  report('evaluate', 1, 'Done');
  return {
    adapterPath,
    peftDir,
    evaluation,
    neutralRewrites,
    baseRewrites,
    characters,
    trainPairs: pairs.train.length,
    heldOut: pairs.heldOut,
  };
}
