// Packed sequences attend only within themselves by either of the trainer's attention paths
// (python/ownvoice_trainer/attention.py): one fused causal scaled_dot_product_attention call over
// the row laid out as one right-padded row per sequence, or one causal softmax per sequence.
// Where torch has no SDPA (Debian's 1.13 here), PyTorch's documented reference math stands in for
// it, so the layout is checked on every machine; with torch 2 the real SDPA is compared. The logit-agreement tests
// against llama.cpp run the trainer's forward on whichever path this torch takes.
import { describe, expect, it } from 'vitest';
import { runTrainer } from './python.js';

describe('attention-check', () => {
  it('gives the same result fused over padded rows as one softmax per sequence', async () => {
    const done = await runTrainer('attention-check', { device: 'cpu', dtype: 'float32' });
    expect(done.fused).toMatch(/^(torch|reference)$/);
    expect(done.max_diff).toBeLessThan(1e-5);
    expect(done.one_segment_diff).toBeLessThan(1e-5);
  });

  it('gives the same result for a long sequence attended in two blocks of queries', async () => {
    const done = await runTrainer('attention-check', { device: 'cpu', dtype: 'float32' });
    expect(done.blocks).toBe(2);
    expect(done.blocked_diff).toBeLessThan(1e-5);
  });
});
