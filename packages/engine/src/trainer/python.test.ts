// Finding the trainer's interpreter imports torch, which takes seconds: the service goes on
// answering meanwhile, and a missing interpreter is named in what to do next. What it measured
// of the CPU settles a preset's 'auto' precision, so the trainer does not measure it again.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPython, PYTHON_CANDIDATES, pickFastest, settledPrecision, TrainerUnavailableError } from './python.js';

describe('findPython', () => {
  it('answers from its cache, and lets the event loop run while it probes', async () => {
    const found = await findPython();
    expect(found.torch).toMatch(/^\d+\.\d+/);
    expect(await findPython()).toBe(found);
    // A named interpreter is probed every time (it may change): the loop turns meanwhile.
    let turns = 0;
    const timer = setInterval(() => {
      turns += 1;
    }, 1);
    try {
      // The same interpreter, torch, device and bfloat16 answer.
      const again = await findPython({ ...process.env, OWNVOICE_PYTHON: found.python });
      expect(again).toEqual(found);
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
  });

  // A timing of bfloat16 against float32 products came out False in 1 of 5 runs on a quiet
  // AVX-512 BF16 machine, more often on a busy one: a Voice then trained at twice the time.
  it.runIf(existsSync('/proc/cpuinfo'))(
    'says bfloat16 products are fast where the CPU has them in hardware, by its flags',
    async () => {
      const flags = /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.split(/\s+/) ?? [];
      // The cached probe: the test above shows a second probe answers the same.
      const found = await findPython();
      expect(found.cpuBf16).toBe(flags.includes('avx512_bf16') || flags.includes('amx_bf16'));
    },
  );

  it('names the interpreter it could not use, and how to install PyTorch', async () => {
    const probe = findPython({ ...process.env, OWNVOICE_PYTHON: '/nonexistent/python3' });
    await expect(probe).rejects.toBeInstanceOf(TrainerUnavailableError);
    await expect(probe).rejects.toThrow(/\/nonexistent\/python3: .*Set OWNVOICE_PYTHON/s);
  });
});

describe('pickFastest', () => {
  const debian = { python: '/usr/bin/python3', torch: '1.13.0a0', cuda: false };
  const pypi = { python: '/venv/bin/python', torch: '2.15.0+cu132', cuda: false };

  it('keeps the first found on a CPU: a newer torch was not faster there', () => {
    expect(pickFastest([debian, pypi])).toBe(debian);
    expect(pickFastest([pypi, debian])).toBe(pypi);
    expect(pickFastest([debian])).toBe(debian);
    expect(pickFastest([])).toBeUndefined();
  });

  it('takes the first whose torch sees a CUDA device, wherever it was found', () => {
    const gpu = { ...pypi, cuda: true };
    expect(pickFastest([debian, gpu])).toBe(gpu);
    expect(pickFastest([gpu, { ...debian, cuda: true }])).toBe(gpu);
  });

  it("looks for Debian's torch first and in no virtualenv: OWNVOICE_PYTHON names one", () => {
    expect(PYTHON_CANDIDATES[0]).toBe('/usr/bin/python3');
    expect(PYTHON_CANDIDATES.some((p) => p.includes('torch-pypi'))).toBe(false);
  });
});

describe('settledPrecision', () => {
  it("settles 'auto' from the probe where the trainer runs on the CPU, and leaves it to a GPU", () => {
    expect(settledPrecision('auto', { cuda: false, cpuBf16: false })).toBe(false);
    expect(settledPrecision('auto', { cuda: false, cpuBf16: true })).toBe(true);
    expect(settledPrecision('auto', { cuda: true, cpuBf16: false })).toBe('auto');
    expect(settledPrecision(true, { cuda: false, cpuBf16: false })).toBe(true);
    expect(settledPrecision(false, { cuda: false, cpuBf16: true })).toBe(false);
  });
});
