import type { VoiceEvaluation } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { evaluationFigures, evaluationSummary, formatPerplexity } from './evaluation-figures';

const evaluation = (basePerplexity: number, voicePerplexity: number, base: number, voice: number): VoiceEvaluation => ({
  heldOut: { baseLoss: 3, voiceLoss: 2.5, basePerplexity, voicePerplexity, examples: 12 },
  style: { baseDelta: 1.2, voiceDelta: 0.9, baseSimilarity: base, voiceSimilarity: voice, samples: 4 },
  samples: [],
});

describe('evaluationFigures', () => {
  it('scales the perplexity bars to the larger value and turns similarity into percent', () => {
    const figures = evaluationFigures(evaluation(40, 30, 0.412, 0.655));
    expect(figures.perplexity).toEqual({ base: 40, voice: 30, scaleMax: 40 });
    expect(figures.perplexityDropPercent).toBe(25);
    expect(figures.similarity).toEqual({ basePercent: 41, voicePercent: 66 });
  });

  it('keeps similarity within 0..100', () => {
    expect(evaluationFigures(evaluation(1, 1, -0.2, 1.3)).similarity).toEqual({ basePercent: 0, voicePercent: 100 });
  });
});

describe('content kept', () => {
  it('turns the recall spread into percent and says it in words', () => {
    const figures = evaluationFigures({
      ...evaluation(40, 30, 0.4, 0.6),
      content: { recall: { median: 0.734, low: 0.61, high: 0.8, n: 16 } },
    });
    expect(figures.content).toEqual({ keptPercent: 73, lowPercent: 61, highPercent: 80 });
    expect(evaluationSummary(figures).at(-1)).toBe(
      "They keep 73% of the plain text's content words (half of them keep between 61% and 80%).",
    );
  });

  it('is left out of evaluations made before it was measured', () => {
    const figures = evaluationFigures(evaluation(40, 30, 0.4, 0.6));
    expect(figures.content).toBeUndefined();
    expect(evaluationSummary(figures)).toHaveLength(2);
  });
});

describe('evaluationSummary', () => {
  it('says how much better the Voice does', () => {
    expect(evaluationSummary(evaluationFigures(evaluation(40, 30, 0.4, 0.6)))).toEqual([
      'Your Voice is 25% less surprised by your unseen writing than the base model.',
      'Its rewrites come closer to your style than the plain text they start from: 60% against 40%.',
    ]);
  });

  it("speaks of someone else's Voice to a visitor", () => {
    const wording = { voice: 'The demo Voice', writer: "its author's" };
    expect(evaluationSummary(evaluationFigures(evaluation(40, 30, 0.4, 0.6)), wording)).toEqual([
      "The demo Voice is 25% less surprised by its author's unseen writing than the base model.",
      "Its rewrites come closer to its author's style than the plain text they start from: 60% against 40%.",
    ]);
  });

  it('says so plainly when it does not', () => {
    const [heldOut, style] = evaluationSummary(evaluationFigures(evaluation(30, 40, 0.6, 0.4)));
    expect(heldOut).toContain('not yet better');
    expect(style).toContain('not yet closer');
  });
});

describe('formatPerplexity', () => {
  it('shows one decimal for small values', () => {
    expect(formatPerplexity(23.456)).toBe('23.5');
    expect(formatPerplexity(1234.5)).toBe('1,235');
  });
});

describe('read as the writer’s', () => {
  const readsAs = {
    accuracy: 0.962,
    passages: 18,
    voice: { share: 9 / 14, spread: { median: 0.64, low: 0.43, high: 0.86, n: 14 } },
    base: { share: 1 / 14, spread: { median: 0.07, low: 0, high: 0.21, n: 14 } },
  };

  it('counts the rewrites read as the writer’s, the Voice’s against the base model’s, and says it first', () => {
    const figures = evaluationFigures({ ...evaluation(40, 30, 0.4, 0.6), readsAs });
    expect(figures.readsAs).toEqual({ voice: 9, base: 1, rewrites: 14, accuracyPercent: 96 });
    expect(evaluationSummary(figures)[0]).toBe(
      'Your Voice wrote 9 of 14 rewrites that read as your writing; the base model wrote 1.',
    );
  });

  it('is left out of evaluations made before it was measured', () => {
    expect(evaluationFigures(evaluation(40, 30, 0.4, 0.6)).readsAs).toBeUndefined();
  });
});
