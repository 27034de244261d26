// The engine's evaluation (shared voiceEvaluationSchema) as a person reads it: how often its
// rewrites read as the writer's to a classifier of their writing, against the base model's; how
// much less surprised the Voice is by its writer's unseen text than the base model, how much of a text's
// content its rewrites keep, and how close they come to the writer's style against the plain
// text they start from. Worded for the Voice's owner, or for a visitor reading
// about someone else's Voice (the landing page's evidence).
import type { VoiceEvaluation } from '@ownvoice/shared';

export interface EvaluationFigures {
  perplexity: { base: number; voice: number /** Longest bar's value. */; scaleMax: number };
  /** How much lower the Voice's perplexity is, in percent of the base model's (negative: higher). */
  perplexityDropPercent: number;
  similarity: { basePercent: number; voicePercent: number };
  /** Content words kept by the rewrites, in percent: the median and the middle half; absent in older evaluations. */
  content?: { keptPercent: number; lowPercent: number; highPercent: number };
  /** Rewrites read as the writer's, of `rewrites` each, by the Voice and the base model; absent in older evaluations. */
  readsAs?: { voice: number; base: number; rewrites: number; accuracyPercent: number };
}

const toPercent = (fraction: number): number => Math.round(Math.min(1, Math.max(0, fraction)) * 100);

export function evaluationFigures({ heldOut, style, content, readsAs }: VoiceEvaluation): EvaluationFigures {
  const base = heldOut.basePerplexity;
  const voice = heldOut.voicePerplexity;
  return {
    perplexity: { base, voice, scaleMax: Math.max(base, voice, Number.EPSILON) },
    perplexityDropPercent: base > 0 ? Math.round(((base - voice) / base) * 100) : 0,
    similarity: { basePercent: toPercent(style.baseSimilarity), voicePercent: toPercent(style.voiceSimilarity) },
    ...(content
      ? {
          content: {
            keptPercent: toPercent(content.recall.median),
            lowPercent: toPercent(content.recall.low),
            highPercent: toPercent(content.recall.high),
          },
        }
      : {}),
    ...(readsAs
      ? {
          readsAs: {
            voice: Math.round(readsAs.voice.share * readsAs.voice.spread.n),
            base: Math.round(readsAs.base.share * readsAs.base.spread.n),
            rewrites: readsAs.voice.spread.n,
            accuracyPercent: toPercent(readsAs.accuracy),
          },
        }
      : {}),
  };
}

/** A perplexity as people read it: one decimal below 100, whole above. */
export const formatPerplexity = (value: number): string =>
  value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');

/** Who the chart talks about: the Voice's name in the bars and the writer's possessive. */
export interface EvaluationWording {
  voice: string;
  writer: string;
}

export const OWNER_WORDING: EvaluationWording = { voice: 'Your Voice', writer: 'your' };

/** One plain sentence per measure, for the top of the chart. */
export function evaluationSummary(figures: EvaluationFigures, { voice, writer } = OWNER_WORDING): string[] {
  const { perplexityDropPercent: drop, similarity, content, readsAs } = figures;
  return [
    ...(readsAs
      ? [
          `${voice} wrote ${readsAs.voice} of ${readsAs.rewrites} rewrites that read as ${writer} writing; the base model wrote ${readsAs.base}.`,
        ]
      : []),
    drop > 0
      ? `${voice} is ${drop}% less surprised by ${writer} unseen writing than the base model.`
      : `${voice} is not yet better than the base model at predicting ${writer} unseen writing.`,
    similarity.voicePercent > similarity.basePercent
      ? `Its rewrites come closer to ${writer} style than the plain text they start from: ${similarity.voicePercent}% against ${similarity.basePercent}%.`
      : `Its rewrites are not yet closer to ${writer} style than the plain text they start from (${similarity.voicePercent}% against ${similarity.basePercent}%).`,
    ...(content
      ? [
          `They keep ${content.keptPercent}% of the plain text's content words (half of them keep between ${content.lowPercent}% and ${content.highPercent}%).`,
        ]
      : []),
  ];
}
