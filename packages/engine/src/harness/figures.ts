// One model's figures in the harness: what its rewrites of the neutral paragraphs kept and whose
// writing they read as, each with its spread over the paragraphs (bootstrap.ts: 1,000 resamples,
// the 5th to 95th percentile):
//   recall       mean share of a paragraph's content words its rewrite kept (content-recall.ts)
//   similarity   mean cosine of paragraph and rewrite by all-MiniLM-L6-v2 (semantic-similarity.ts)
//   attribution  share of the rewrites the classifier gives to each class (a writer or neutral)
//   probability  mean probability the classifier gives each class: it moves before attribution does
//   delta        Burrows' Delta of the rewrites pooled to each writer, as before (rewrite-measures.ts)
//   perplexity   the base model's perplexity of each rewrite (fluency.ts)
// Shapes: inputs[n], rewrites[n], similarities[n], perplexities[n] → one figure (and spread) each.
import { type AuthorshipClassifier, likeliest } from '../eval/authorship-classifier.js';
import { type BootstrapSpread, bootstrap, mean } from '../eval/bootstrap.js';
import { contentRecall } from '../eval/content-recall.js';
import { measureRewrites, type RewriteMeasures } from '../eval/rewrite-measures.js';
import type { StyleScale } from '../eval/stylometry.js';

export interface ModelFigures {
  rewrites: string[];
  recall: BootstrapSpread;
  /** Absent when the harness ran without the sentence-embedding model. */
  similarity?: BootstrapSpread;
  /** Per class: the share of the rewrites attributed to it. */
  attribution: Record<string, BootstrapSpread>;
  /** The class each rewrite was attributed to, in order. */
  attributedTo: string[];
  /** Per class: the mean probability the classifier gives it over the rewrites. */
  probability: Record<string, BootstrapSpread>;
  delta: RewriteMeasures['style'];
  /** The base model's perplexity of each rewrite. */
  perplexities: number[];
}

export interface FigureInputs {
  inputs: readonly string[];
  rewrites: readonly string[];
  similarities?: readonly number[] | undefined;
  perplexities: readonly number[];
  classifier: AuthorshipClassifier;
  /** Each writer's own text, for Delta, on `scale`. */
  writers: Readonly<Record<string, string>>;
  scale: StyleScale;
}

/** The share of `attributed` that is `name`. */
const shareOf = (name: string) => (attributed: readonly string[]) =>
  attributed.filter((c) => c === name).length / attributed.length;

export function modelFigures(req: FigureInputs): ModelFigures {
  const { inputs, rewrites, classifier } = req;
  const probabilities = rewrites.map((r) => classifier.probabilities(r));
  const attributedTo = probabilities.map(likeliest);
  const attribution = Object.fromEntries(classifier.classes.map((c) => [c, bootstrap(attributedTo, shareOf(c))]));
  const probability = Object.fromEntries(
    classifier.classes.map((c) => [
      c,
      bootstrap(
        probabilities.map((p) => p[c] as number),
        mean,
      ),
    ]),
  );
  const recalls = inputs.map((input, i) => contentRecall(input, rewrites[i] as string));
  return {
    rewrites: [...rewrites],
    recall: bootstrap(recalls, mean),
    ...(req.similarities ? { similarity: bootstrap(req.similarities, mean) } : {}),
    attribution,
    attributedTo,
    probability,
    delta: measureRewrites({ inputs, outputs: rewrites, writers: req.writers, scale: req.scale }).style,
    perplexities: [...req.perplexities],
  };
}

/** The share of rewrites attributed to any writer (not to neutral prose), with its spread. */
export const attributedToAnyWriter = (figures: ModelFigures, neutral: string): BootstrapSpread =>
  bootstrap(figures.attributedTo, (sample) => 1 - shareOf(neutral)(sample));

/**
 * How much less readily the base writes a model's rewrites than its own: the ratio of their
 * geometric-mean perplexities over the same paragraphs, resampled in pairs.
 */
export function perplexityRatio(model: readonly number[], base: readonly number[]): BootstrapSpread {
  const pairs = model.map((p, i) => [Math.log(p), Math.log(base[i] as number)] as const);
  return bootstrap(pairs, (sample) => Math.exp(mean(sample.map(([m, b]) => m - b))));
}
