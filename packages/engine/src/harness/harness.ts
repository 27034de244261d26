// The evaluation harness: does a Voice write like its writer while keeping what a text says?
// A Voice is trained on each writer's writing (corpus/writers.ts: the two house authors and
// Melville); every Voice and the plain base model then rewrite the same neutral paragraphs
// (corpus/neutral.ts: modern prose by none of them) with Convert's rewrite, and each model's
// rewrites are measured (figures.ts): content kept (content-word recall, semantic similarity),
// whose writing they read as (an authorship classifier trained on the writers' reference text and
// other neutral prose, cross-validated first; Burrows' Delta as before), fluency (the base model's
// perplexity of them against its own rewrites), and each Voice's held-out perplexity on its
// writer's text against the base's. The same code runs on any base model (`npm run eval -- --base
// MODEL`); the house model's tests run it on the two house authors.
//
//   stage            gives
//   trainVoices      a Voice per writer, with its rewrites of the paragraphs (its evaluation's)
//                    and the plain base model's rewrites of the same paragraphs
//   scoreRewrites    semantic similarity to its paragraph and base perplexity, for every rewrite
//   measure          each model's figures, the classifier's cross-validation, the Voices' ratios
import path from 'node:path';
import type { EmbeddingModelFiles } from '../base-model/embedding-model.js';
import {
  HARNESS_WRITERS,
  type HarnessWriter,
  referenceWriting,
  voiceWriting,
  WRITER_NAMES,
} from '../corpus/writers.js';
import type { CrossValidation } from '../eval/authorship-classifier.js';
import type { BootstrapSpread } from '../eval/bootstrap.js';
import type { Spread } from '../eval/quantiles.js';
import { StyleScale } from '../eval/stylometry.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { spreadEvenly } from '../text/passages.js';
import { semanticSimilarities } from '../trainer/semantic-similarity.js';
import { evaluationParagraphs, styleSamples } from '../voice/evaluate.js';
import { NEUTRAL_CLASS, writerClassifier } from '../voice/style-classifier.js';
import { type TrainedVoice, trainVoice, type VoicePreset, type VoiceProgress } from '../voice/train-voice.js';
import { attributedToAnyWriter, type ModelFigures, modelFigures, perplexityRatio } from './figures.js';
import { basePerplexities } from './fluency.js';

/** What a Voice is held to (issue "Does a Voice write like its person?"; the bench prints them). */
export const HARNESS_TARGETS = {
  /** Share of a Voice's rewrites attributed to its own writer: at least. */
  ownAttribution: 0.8,
  /** Share of the base model's rewrites attributed to any writer: at most. */
  baseAttribution: 0.2,
  /** Mean semantic similarity of rewrite and paragraph: at least. */
  similarity: 0.8,
  /** Mean content-word recall: at least. */
  recall: 0.6,
  /** The base's perplexity of a Voice's rewrites over that of its own rewrites: at most. */
  perplexityRatio: 1.5,
  /** 1 - Voice / base perplexity on the writer's held-out text: at least. */
  perplexityDrop: 0.2,
} as const;

export interface HarnessVoice {
  writer: HarnessWriter;
  voice: TrainedVoice;
  progress: VoiceProgress[];
  figures: ModelFigures;
  /** The share of its rewrites attributed to its own writer. */
  ownAttribution: BootstrapSpread;
  /** The base's perplexity of its rewrites over that of the base's own rewrites. */
  perplexityRatio: BootstrapSpread;
  /** 1 - Voice perplexity / base perplexity, on the writer's held-out text. */
  perplexityDrop: number;
  /** The drop resampled over the held-out pairs (absent from a trainer that gave no per-pair losses). */
  perplexityDropSpread: Spread | undefined;
}

export interface HarnessReport {
  writers: HarnessWriter[];
  /** The neutral paragraphs every model rewrote. */
  inputs: string[];
  /** The classifier's cross-validated accuracy on its own passages: how far to trust its verdicts. */
  classifier: CrossValidation;
  /** The paragraphs themselves, measured as if they were rewrites: where rewriting starts. */
  asGiven: ModelFigures;
  /** The plain base model's rewrites. */
  base: ModelFigures;
  /** The share of the base model's rewrites attributed to any writer. */
  baseAttribution: BootstrapSpread;
  voices: HarnessVoice[];
}

export interface HarnessRequest {
  engine: VoiceEngine;
  baseModelPath: string;
  baseModelName: string;
  preset: VoicePreset;
  workDir: string;
  /** The writers to train a Voice of: all of them by default. */
  writers?: readonly HarnessWriter[];
  /** Neutral paragraphs to rewrite (spread over the file's subjects): all of them by default. */
  paragraphs?: number;
  /** The sentence-embedding model: semantic similarity is measured only with it. */
  embeddingModel?: EmbeddingModelFiles;
  threads?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

interface Trained {
  writer: HarnessWriter;
  voice: TrainedVoice;
  progress: VoiceProgress[];
}

/**
 * A Voice per writer; each one's evaluation rewrites the harness's paragraphs, against the base
 * model's rewrites of them, which the first evaluation makes and the others reuse.
 */
async function trainVoices(req: HarnessRequest, writers: readonly HarnessWriter[], log: (l: string) => void) {
  const preset = { ...req.preset, evaluationParagraphs: req.paragraphs };
  const trained: Trained[] = [];
  for (const writer of writers) {
    log(`training a Voice on ${WRITER_NAMES[writer]}`);
    const progress: VoiceProgress[] = [];
    const outDir = path.join(req.workDir, writer);
    const voice = await trainVoice({
      engine: req.engine,
      baseModelPath: req.baseModelPath,
      baseModelName: req.baseModelName,
      files: [{ name: `${writer}.txt`, data: Buffer.from(voiceWriting(writer)) }],
      preset,
      workDir: path.join(outDir, 'work'),
      outDir,
      version: 'harness',
      heldOutFraction: 0.2,
      ...(req.threads ? { threads: req.threads } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      onProgress: (p) => progress.push(p),
      ...(trained[0] ? { baseRewrites: trained[0].voice.baseRewrites } : {}),
    });
    trained.push({ writer, voice, progress });
  }
  return trained;
}

/** Per rewrite set, in order: its similarities to the paragraphs (when measured) and base perplexities. */
async function scoreRewrites(req: HarnessRequest, inputs: readonly string[], sets: readonly string[][]) {
  const all = sets.flat();
  const perplexities = await basePerplexities({
    runtime: req.engine.runtime,
    modelPath: req.baseModelPath,
    texts: all,
    workDir: path.join(req.workDir, 'fluency'),
    threads: req.threads,
  });
  const similarities = req.embeddingModel
    ? await semanticSimilarities(
        req.embeddingModel,
        sets.flatMap((rewrites) => rewrites.map((r, i) => [inputs[i] as string, r] as const)),
        req.threads ? { threads: req.threads } : {},
      )
    : undefined;
  const n = inputs.length;
  return sets.map((_, s) => ({
    perplexities: perplexities.slice(s * n, (s + 1) * n),
    similarities: similarities?.slice(s * n, (s + 1) * n),
  }));
}

/** Delta's writers: each one's reference text, a few dozen passages spread over it, and its scale. */
function deltaReference(writers: readonly HarnessWriter[]) {
  const samples = Object.fromEntries(writers.map((w) => [w, spreadEvenly(styleSamples(referenceWriting(w)), 40)]));
  return {
    writers: Object.fromEntries(writers.map((w) => [w, (samples[w] as string[]).join('\n\n')])),
    scale: new StyleScale(Object.values(samples).flat()),
  };
}

export async function runHarness(req: HarnessRequest): Promise<HarnessReport> {
  const log = req.log ?? (() => {});
  const writers = [...(req.writers ?? HARNESS_WRITERS)];
  if (!writers.length) throw new RangeError('the harness needs at least one writer');
  const inputs = evaluationParagraphs(req.paragraphs);
  const trained = await trainVoices(req, writers, log);

  // Each Voice's evaluation read its rewrites against the base model's of the same paragraphs.
  const base = (trained[0] as Trained).voice.baseRewrites;

  log('measuring: semantic similarity, the base model’s perplexity of every rewrite, the classifier');
  const sets = [inputs, base, ...trained.map((t) => t.voice.neutralRewrites)];
  const scores = await scoreRewrites(req, inputs, sets);
  const classifier = writerClassifier(Object.fromEntries(writers.map((w) => [w, [referenceWriting(w)]])));
  const reference = deltaReference(writers);
  const figuresOf = (s: number) =>
    modelFigures({
      inputs,
      rewrites: sets[s] as string[],
      ...(scores[s] as (typeof scores)[number]),
      classifier,
      ...reference,
    });
  const baseFigures = figuresOf(1);
  return {
    writers,
    inputs,
    classifier: classifier.crossValidation,
    asGiven: figuresOf(0),
    base: baseFigures,
    baseAttribution: attributedToAnyWriter(baseFigures, NEUTRAL_CLASS),
    voices: trained.map(({ writer, voice, progress }, v) => {
      const figures = figuresOf(v + 2);
      const { basePerplexity, voicePerplexity, drop } = voice.evaluation.heldOut;
      return {
        writer,
        voice,
        progress,
        figures,
        ownAttribution: figures.attribution[writer] as BootstrapSpread,
        perplexityRatio: perplexityRatio(figures.perplexities, baseFigures.perplexities),
        perplexityDrop: 1 - voicePerplexity / basePerplexity,
        perplexityDropSpread: drop,
      };
    }),
  };
}
