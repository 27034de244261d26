// @vitest-environment happy-dom
// The evaluation as the Voice's owner sees it: how often its rewrites read as theirs against the
// base model's comes first, in words and as bars, with the classifier's accuracy said below; an
// evaluation made before that was measured shows the rest without it.

import type { VoiceEvaluation } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { testUser } from '../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../test/render';
import { EvaluationChart } from './EvaluationChart';

afterEach(resetPage);

const spread = (median: number, n = 14) => ({ median, low: median - 0.1, high: median + 0.1, n });

const EVALUATION: VoiceEvaluation = {
  heldOut: { baseLoss: 2.6, voiceLoss: 2.3, basePerplexity: 13.5, voicePerplexity: 9.9, examples: 12 },
  content: { recall: spread(0.84, 28) },
  style: { voiceDelta: 0.6, baseDelta: 0.61, voiceSimilarity: 0.73, baseSimilarity: 0.72, samples: 14 },
  readsAs: {
    accuracy: 0.953,
    passages: 21,
    voice: { share: 5 / 14, spread: spread(0.36) },
    base: { share: 1 / 14, spread: spread(0.07) },
  },
  samples: [],
};

describe('EvaluationChart', () => {
  it(
    'says first how many rewrites read as the owner’s, and draws them against the base model’s',
    async () => {
      renderWithProviders(<EvaluationChart evaluation={EVALUATION} />, { user: testUser() });
      const chart = await screen.findByTestId('evaluation-chart');
      expect(within(chart).getAllByText(/./)[0]?.textContent).toBe(
        'Your Voice wrote 5 of 14 rewrites that read as your writing; the base model wrote 1.',
      );
      const bars = within(screen.getByTestId('evaluation-reads-as'));
      expect(bars.getByRole('progressbar', { name: 'Base model: 1 of 14' })).toBeDefined();
      expect(bars.getByRole('progressbar', { name: 'Your Voice: 5 of 14' })).toBeDefined();
      expect(chart.textContent).toContain('it told them apart 95% of the time');
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'leaves the bars out of an evaluation made before it was measured',
    async () => {
      const { readsAs: _measured, ...older } = EVALUATION;
      renderWithProviders(<EvaluationChart evaluation={older} />, { user: testUser() });
      await screen.findByTestId('evaluation-chart');
      expect(screen.queryByTestId('evaluation-reads-as')).toBeNull();
      expect(screen.getByTestId('evaluation-chart').textContent).not.toContain('told them apart');
    },
    PAGE_TEST_TIMEOUT,
  );
});
