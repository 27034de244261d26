// `python3 -m ownvoice_trainer gpu-bench` must run on a machine that has only Python, PyTorch and
// the trainer's folder (a lent GPU has no Node.js and no network): here it runs at its tiny shape
// on the CPU, from a folder outside the repository with nothing but PYTHONPATH, and prints its
// table. The figures at this shape mean nothing; that it runs end to end is the point.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/fixtures.js';
import { findPython, TRAINER_DIR } from './python.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('gpu-bench --tiny', () => {
  it('prints the trainer-vs-plain, train-stage and whole-Voice tables from the trainer folder alone', async () => {
    const { python } = await findPython();
    const run = spawnSync(python, ['-m', 'ownvoice_trainer', 'gpu-bench', '--tiny', '--runs', '1'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, PYTHONPATH: TRAINER_DIR, OMP_NUM_THREADS: '1' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^gpu-bench on cpu: bench-train, 3 steps of 2 x 32 tokens, .* median \(min–max\) of 1$/m,
    );
    const row = run.stdout.split('\n').find((line) => line.startsWith('| tiny |'));
    for (const dtype of ['float32', 'bfloat16']) {
      expect(run.stdout).toMatch(
        new RegExp(
          `^Attention on packed sequences, (torch|reference) SDPA vs one softmax per sequence \\(cpu, ${dtype}\\): max difference [\\d.]+e[-+]\\d+$`,
          'm',
        ),
      );
    }
    const packed =
      /^Packed rows vs each example alone \(cpu, float32\): largest relative loss difference ([\d.]+e[-+]\d+)$/m;
    expect(Number(run.stdout.match(packed)?.[1])).toBeLessThan(1e-5);
    // The Voice's own batches: bfloat16 products, the trainer's passes sized by the device.
    expect(run.stdout).toMatch(/^\| tiny, the Voice's \(2 x 24, bf16\) \| [\d,]+ \(/m);
    // | 4 | 1.1 (1.1–1.1) | 199 (199–199) | 260 |  and the same for 8 pairs
    for (const pairs of [4, 8]) {
      expect(run.stdout).toMatch(
        new RegExp(
          `^\\| ${pairs} \\| [\\d.]+ \\([\\d.]+–[\\d.]+\\) \\| [\\d,]+ \\([\\d,]+–[\\d,]+\\) \\| [\\d,]+ \\|$`,
          'm',
        ),
      );
    }
    // | - | 4 | 0.9 (0.9–1.0) | 1.6 (1.5–1.7) | 0.9 (0.9–0.9) | 3.4 (3.3–3.6) | 250 |  (a whole Voice)
    const seconds = '[\\d.]+ \\([\\d.]+–[\\d.]+\\)';
    for (const pairs of [4, 8]) {
      expect(run.stdout).toMatch(new RegExp(`^\\| - \\| ${pairs} \\| (${seconds} \\| ){4}[\\d,]+ \\|$`, 'm'));
    }
    // | tiny | 452 (251–8,329) | 1,061 (442–4,530) | 0.24× (0.10–18.86) | 246, 246 |
    expect(row).toMatch(
      /^\| tiny \| [\d,]+ \([\d,]+–[\d,]+\) \| [\d,]+ \([\d,]+–[\d,]+\) \| [\d.]+× \([\d.]+–[\d.]+\) \| [\d,]+, [\d,]+ \|$/,
    );
  });
});
