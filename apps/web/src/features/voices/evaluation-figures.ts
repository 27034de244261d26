// The engine's evaluation (shared voiceEvaluationSchema) as a writer reads it: how much less
// surprised the Voice is by writing of theirs it never saw, and how close its rewrites come to
// their style, each against the base model.
import type { VoiceEvaluation } from '@ownvoice/shared';

export interface EvaluationFigures {
  perplexity: { base: number; voice: number /** Longest bar's value. */; scaleMax: number };
  /** How much lower the Voice's perplexity is, in percent of the base model's (negative: higher). */
  perplexityDropPercent: number;
  similarity: { basePercent: number; voicePercent: number };
}

const toPercent = (fraction: number): number => Math.round(Math.min(1, Math.max(0, fraction)) * 100);

export function evaluationFigures({ heldOut, style }: VoiceEvaluation): EvaluationFigures {
  const base = heldOut.basePerplexity;
  const voice = heldOut.voicePerplexity;
  return {
    perplexity: { base, voice, scaleMax: Math.max(base, voice, Number.EPSILON) },
    perplexityDropPercent: base > 0 ? Math.round(((base - voice) / base) * 100) : 0,
    similarity: { basePercent: toPercent(style.baseSimilarity), voicePercent: toPercent(style.voiceSimilarity) },
  };
}

/** A perplexity as people read it: one decimal below 100, whole above. */
export const formatPerplexity = (value: number): string =>
  value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');

/** One plain sentence per measure, for the top of the chart. */
export function evaluationSummary(figures: EvaluationFigures): string[] {
  const { perplexityDropPercent: drop, similarity } = figures;
  return [
    drop > 0
      ? `Your Voice is ${drop}% less surprised by your unseen writing than the base model.`
      : 'Your Voice is not yet better than the base model at predicting your unseen writing.',
    similarity.voicePercent > similarity.basePercent
      ? `Its rewrites come closer to your style: ${similarity.voicePercent}% against ${similarity.basePercent}%.`
      : `Its rewrites are not yet closer to your style than the base model's (${similarity.voicePercent}% against ${similarity.basePercent}%).`,
  ];
}
