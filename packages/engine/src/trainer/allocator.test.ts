// The trainer keeps the memory a step frees for the next step (python/ownvoice_trainer/allocator.py):
// once the heap has grown to a step's size, the next steps' large blocks reuse pages that are
// already there, rather than faulting each one in anew. Counted in page faults, which do not
// depend on how busy the machine is.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findPython, TRAINER_DIR } from './python.js';

/** Pages a step writes: 64 MiB and 32 MiB, both above glibc's largest mmap threshold (32 MiB). */
const STEP_PAGES = (96 << 20) / 4096;
const MEASURED_STEPS = 5;

/** Minor page faults over five steps of large temporaries, after five steps to grow the heap. */
async function faultsPerStep(keep: boolean): Promise<number> {
  const script = `
import resource
${keep ? 'from ownvoice_trainer.allocator import keep_freed_memory; assert keep_freed_memory()' : ''}
import torch
faults = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def step():  # allocated, written, freed, as a step's activations are
    a = torch.empty(16 << 20).fill_(1.0)
    b = torch.empty(8 << 20).fill_(2.0)
    return float(a[0] + b[0])
for _ in range(5): step()
before = faults()
for _ in range(${MEASURED_STEPS}): step()
print(faults() - before)`;
  const run = spawnSync((await findPython()).python, ['-c', script], {
    env: { ...process.env, PYTHONPATH: TRAINER_DIR },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout.trim()) / MEASURED_STEPS;
}

describe('keep_freed_memory', () => {
  it('lets the next step reuse the pages a step freed', async () => {
    // Without it glibc unmaps each block on free, and every page of every step faults in again.
    expect(await faultsPerStep(false)).toBeGreaterThan(STEP_PAGES / 2);
    // With it none do (one step's growth of the heap at most would still pass).
    expect(await faultsPerStep(true)).toBeLessThan(STEP_PAGES / 4);
  });
});
