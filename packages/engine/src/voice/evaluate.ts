// How much like the person a Voice writes, measured on writing it never trained on:
//  - held-out loss and perplexity of the base model and of the Voice on the person's own text,
//    given its generic version (lower is better: the Voice predicts their words better), as the
//    trainer measured them before its first step and at the epoch it kept (train-voice.ts);
//  - the Voice's rewrites of the two-author harness's neutral paragraphs (corpus/neutral.ts: plain
//    modern prose by nobody in particular, the generic text people bring to Convert), made by the
//    same rewrite Convert runs (rewrite.ts: repeat penalty, stop string, judge and reroll) and
//    measured by rewrite-measures.ts: the share of each paragraph's content words the rewrite
//    kept, and the Burrows' Delta of the rewrites to the person's held-out writing beside the
//    Delta of the paragraphs themselves (where a rewrite starts). A Voice that writes like the
//    person has the smaller Delta. The scale's reference texts are the person's held-out passages
//    and passages by the house corpus's two writers, never the texts being measured. The
//    paragraphs are not the person's own passages made generic: those keep the person's subjects,
//    and with them much of the style measure (decision 16);
//  - whose writing the rewrites read as (style-classifier.ts): a classifier trained on the
//    person's held-out passages against neutral prose judges each of the Voice's rewrites and each
//    of the base model's rewrites of the same paragraphs; the share read as the person's, for each,
//    with its spread over the paragraphs, and the classifier's cross-validated accuracy;
//  - a few held-out passages to read: the generic version, the Voice's rewrite, the original.

import { setMaxListeners } from 'node:events';
import { HOUSE_AUTHORS, houseTrainingText } from '../corpus/authors.js';
import { neutralParagraphs } from '../corpus/neutral.js';
import type { AuthorshipClassifier } from '../eval/authorship-classifier.js';
import { bootstrap, mean } from '../eval/bootstrap.js';
import type { Spread } from '../eval/quantiles.js';
import { measureRewrites } from '../eval/rewrite-measures.js';
import { StyleScale, styleSimilarity } from '../eval/stylometry.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { splitPassages, spreadEvenly } from '../text/passages.js';
import type { RewritePair } from './pairs.js';
import { rewriteWhole } from './rewrite.js';
import { writerClassifier } from './style-classifier.js';

export interface VoiceEvaluation {
  heldOut: {
    baseLoss: number;
    voiceLoss: number;
    basePerplexity: number;
    voicePerplexity: number;
    examples: number;
    /** The perplexity drop (1 − Voice ÷ base) resampled over the held-out pairs. */
    drop?: Spread;
  };
  /** Share of the neutral paragraphs' content words the Voice's rewrites kept, over the rewrites. */
  content: { recall: Spread };
  style: {
    voiceDelta: number;
    baseDelta: number;
    voiceSimilarity: number;
    baseSimilarity: number;
    samples: number;
    /** Delta over resamples of the rewrites (of the neutral paragraphs for the base). */
    voiceSpread: Spread;
    baseSpread: Spread;
  };
  /**
   * How often the rewrites read as the person's, the Voice's against the base model's; absent when
   * the held-out writing is too short to learn the person's style from (fewer than two passages).
   */
  readsAs?: ReadsAs;
  /** A few held-out rewrites a person can read. */
  samples: { generic: string; voice: string; original: string }[];
}

export interface ReadsAs {
  /** The classifier's cross-validated accuracy on the person's passages and neutral prose. */
  accuracy: number;
  /** The person's held-out passages it learnt from. */
  passages: number;
  /** The share of the Voice's rewrites it read as the person's, with its spread. */
  voice: { share: number; spread: Spread };
  /** The same for the base model's rewrites of the same paragraphs. */
  base: { share: number; spread: Spread };
}

/** The class of the person's own writing in a Voice's classifier. */
const YOU = 'you';

/** Shares of the rewrites read as the person's, by a classifier of their held-out writing. */
export function readsAs(
  originals: readonly string[],
  voice: readonly string[],
  base: readonly string[],
): ReadsAs | undefined {
  let classifier: AuthorshipClassifier;
  try {
    classifier = writerClassifier({ [YOU]: originals });
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  const share = (rewrites: readonly string[]) => {
    const yours = rewrites.map((r) => (classifier.attribute(r) === YOU ? 1 : 0));
    const b = bootstrap(yours, mean);
    return { share: b.all, spread: { median: b.median, low: b.low, high: b.high, n: b.n } };
  };
  const cv = classifier.crossValidation;
  return {
    accuracy: cv.accuracy,
    passages: Object.values(cv.confusion[YOU] ?? {}).reduce((sum, n) => sum + n, 0),
    voice: share(voice),
    base: share(base),
  };
}

/** Passages of other writers on every evaluation's style scale, per writer. */
const OTHER_WRITER_SAMPLES = 12;

/** Reference texts of another writer: passages of about the size of a few rewrites. */
export const styleSamples = (text: string): string[] => splitPassages(text, { maxChars: 1500, minChars: 500 });

/** The house corpus's writers, a few passages each, spread over their text. */
export function otherWriterSamples(): string[] {
  return HOUSE_AUTHORS.flatMap((author) => {
    const samples = styleSamples(houseTrainingText(author));
    const step = Math.max(1, Math.floor(samples.length / OTHER_WRITER_SAMPLES));
    return samples.filter((_, i) => i % step === 0).slice(0, OTHER_WRITER_SAMPLES);
  });
}

/**
 * The rewrite of each text, in the Voice `voiceId` (the plain base model when undefined): the same
 * rewrite Convert runs (rewrite.ts), chunked at `maxChars`, the passage size the Voice trained on,
 * but one attempt per chunk: what the Voice writes first, greedily. Convert's rerolls give a
 * person a usable chunk when the first is not; counted here they would hide how often that is,
 * and they triple the time a Voice that often fails takes to evaluate.
 *
 * All texts are asked for at once: the engine decodes as many as the Voice's context has
 * sequences in one pass and queues the rest in order. The first failure stops the others and is
 * what this throws, once all have ended.
 */
export async function rewriteAll(
  engine: VoiceEngine,
  voiceId: string | undefined,
  texts: readonly string[],
  { maxChars, signal }: { maxChars: number; signal?: AbortSignal | undefined },
): Promise<string[]> {
  const failed = new AbortController();
  const all = AbortSignal.any([failed.signal, ...(signal ? [signal] : [])]);
  // Each waiting rewrite listens to it: not a leak.
  setMaxListeners(4 * texts.length + 10, all);
  const options = { voiceId, maxChars, maxAttempts: 1, judge: acceptAll, signal: all };
  const rewrites: Promise<string>[] = new Array(texts.length);
  // Asked for longest first: the engine's lanes then end on short rewrites together, not with
  // one lane still writing a long passage that was queued last while the others sit idle.
  for (const i of longestFirst(texts)) {
    rewrites[i] = rewriteWhole(engine, texts[i] as string, options).then(
      (rewrite) => rewrite.trim(),
      (error: unknown) => {
        failed.abort(error);
        throw error;
      },
    );
  }
  // Every rewrite has ended before this returns: none is left running on the Voice behind the caller.
  const results = await Promise.allSettled(rewrites);
  signal?.throwIfAborted();
  if (failed.signal.aborted) throw failed.signal.reason;
  return results.map((r) => (r as PromiseFulfilledResult<string>).value);
}

/** The indices of `texts`, longest first (ties in their order). */
export const longestFirst = (texts: readonly string[]): number[] =>
  texts.map((_, i) => i).sort((a, b) => (texts[b] as string).length - (texts[a] as string).length);

/** The first attempt stands, judged or not: no inline error marker in place of what was written. */
const acceptAll = () => ({ ok: true }) as const;

const perplexity = (loss: number) => Math.exp(Math.min(loss, 50));

/**
 * The neutral paragraphs an evaluation rewrites: `count` of them spread over the file's subjects,
 * or all of them.
 */
export const evaluationParagraphs = (count?: number): string[] =>
  spreadEvenly(neutralParagraphs(), count ?? Number.POSITIVE_INFINITY);

/**
 * The held-out perplexity drop's spread over the held-out pairs: each resample's drop from its
 * pairs' mean losses (each pair weighing the same, where the drop itself weighs each token).
 */
function dropSpread(examples: { base: number[]; voice: number[] } | undefined): { drop?: Spread } {
  if (!examples?.base.length || examples.base.length !== examples.voice.length) return {};
  const paired = examples.base.map((base, i) => ({ base, voice: examples.voice[i] as number }));
  const b = bootstrap(
    paired,
    (sample) => 1 - Math.exp(mean(sample.map((p) => p.voice)) - mean(sample.map((p) => p.base))),
  );
  return { drop: { median: b.median, low: b.low, high: b.high, n: b.n } };
}

/** Held-out passages an evaluation shows by default. */
export const EVALUATION_SAMPLES = 3;

export async function evaluateVoice(req: {
  engine: VoiceEngine;
  voiceId: string;
  heldOutPairs: readonly RewritePair[];
  /**
   * Mean loss per target token on the held-out pairs, of the base model and of the Voice, and each
   * pair's own (for the drop's spread; a trainer older than them gives none).
   */
  heldOutLoss: { base: number; voice: number; examples?: { base: number[]; voice: number[] } };
  /** The passage size the Voice trained on: its rewrites are chunked at it, as Convert does. */
  maxChars: number;
  /** Held-out passages shown as samples. */
  samples?: number;
  /** How many neutral paragraphs to rewrite (evaluationParagraphs); all of them when absent. */
  paragraphs?: number | undefined;
  /** The base model's rewrites of those paragraphs, when already made; made here otherwise. */
  baseRewrites?: readonly string[];
  signal?: AbortSignal;
}): Promise<{ evaluation: VoiceEvaluation; neutralRewrites: string[]; baseRewrites: string[] }> {
  const inputs = evaluationParagraphs(req.paragraphs);
  const shown = req.heldOutPairs.slice(0, req.samples ?? EVALUATION_SAMPLES);
  // One call, so the samples share the passes of the paragraphs.
  const all = await rewriteAll(req.engine, req.voiceId, [...inputs, ...shown.map((p) => p.generic)], {
    maxChars: req.maxChars,
    signal: req.signal,
  });
  const [rewrites, shownRewrites] = [all.slice(0, inputs.length), all.slice(inputs.length)];
  // The base model's rewrites of the same paragraphs: what the Voice's are read against.
  const baseRewrites = req.baseRewrites
    ? [...req.baseRewrites]
    : await rewriteAll(req.engine, undefined, inputs, { maxChars: req.maxChars, signal: req.signal });
  if (baseRewrites.length !== inputs.length) throw new RangeError('one base rewrite per paragraph is needed');
  const originals = req.heldOutPairs.map((p) => p.original);
  const readAs = readsAs(originals, rewrites, baseRewrites);
  const scale = new StyleScale([...originals, ...otherWriterSamples()]);
  const writers = { you: originals.join('\n\n') };
  const byVoice = measureRewrites({ inputs, outputs: rewrites, writers, scale });
  const asGiven = measureRewrites({ inputs, outputs: inputs, writers, scale });
  const [voiceStyle, baseStyle] = [byVoice.style.you, asGiven.style.you] as const;
  if (!voiceStyle || !baseStyle) throw new Error('the style measure lost its writer');
  const evaluation: VoiceEvaluation = {
    heldOut: {
      baseLoss: req.heldOutLoss.base,
      voiceLoss: req.heldOutLoss.voice,
      basePerplexity: perplexity(req.heldOutLoss.base),
      voicePerplexity: perplexity(req.heldOutLoss.voice),
      examples: req.heldOutPairs.length,
      ...dropSpread(req.heldOutLoss.examples),
    },
    content: { recall: byVoice.recall },
    style: {
      voiceDelta: voiceStyle.delta,
      baseDelta: baseStyle.delta,
      voiceSimilarity: styleSimilarity(voiceStyle.delta),
      baseSimilarity: styleSimilarity(baseStyle.delta),
      samples: inputs.length,
      voiceSpread: voiceStyle.spread,
      baseSpread: baseStyle.spread,
    },
    ...(readAs ? { readsAs: readAs } : {}),
    samples: shown.map((p, i) => ({ generic: p.generic, voice: shownRewrites[i] ?? '', original: p.original })),
  };
  return { evaluation, neutralRewrites: rewrites, baseRewrites };
}
