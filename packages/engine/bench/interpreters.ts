// The bench's section 7: the trainer on two (or more) PyTorch interpreters, say Debian's
// (/usr/bin/python3, apt's python3-torch) and PyPI's in a virtualenv, on the same steps of the
// real base model: LoRA training at the preset the product picks for it, and the pairs stage's
// paraphrases of a few passages on the trainer. Each interpreter is probed as findPython probes
// one named in OWNVOICE_PYTHON, and each sample runs on a trainer process of its own started on
// that interpreter, so every figure is that interpreter's. run.ts interleaves them and prints.
import { VoiceEngine } from '../src/runtime/voice-engine.js';
import { splitPassages } from '../src/text/passages.js';
import { findPython, settledPrecision, TrainerProcess, type TrainerPython } from '../src/trainer/python.js';
import { paraphraseChat, paraphraseSettings } from '../src/voice/prompts.js';
import type { VoicePreset } from '../src/voice/train-voice.js';
import { realVoiceText } from './real-model.js';

/** Comma-separated interpreters to compare, the first the baseline of each ratio. */
export const PYTHONS_ENV = 'OWNVOICE_BENCH_PYTHONS';

export const PYTHONS_HINT =
  `set ${PYTHONS_ENV}=/usr/bin/python3,$HOME/.cache/ownvoice/torch-pypi/bin/python (after ` +
  'python3 -m venv ~/.cache/ownvoice/torch-pypi && ~/.cache/ownvoice/torch-pypi/bin/pip install torch numpy)';

/**
 * What installing PyPI's torch cost, measured once by hand (not by the bench): a fixed note row.
 * `python3 -m venv ~/.cache/ownvoice/torch-pypi && .../bin/pip install torch numpy`, timed with
 * /usr/bin/time -v, the venv's size with du -sh.
 */
export const PYPI_INSTALL_NOTE =
  'measured 2026-12-06 on a 2-core machine: pip install torch numpy (torch 2.15.0+cu132, numpy 2.4.6, CUDA 13 ' +
  'libraries included though unused on a CPU) took 1 min 18 s and downloaded 3.0 GB; the venv is 5.4 GB on disk ' +
  "(nvidia 3.0 GB, torch 1.2 GB, triton 1.0 GB). Debian's python3-torch 1.13.1 with libtorch, numpy and OpenBLAS: 0.25 GB";

export const benchPythons = (env: NodeJS.ProcessEnv = process.env): string[] | undefined => {
  const list = env[PYTHONS_ENV]
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return list?.length ? list : undefined;
};

/** Each interpreter as findPython sees it when OWNVOICE_PYTHON names it (rejects if one lacks torch). */
export const probePythons = (pythons: readonly string[]): Promise<TrainerPython[]> =>
  Promise.all(pythons.map((python) => findPython({ ...process.env, OWNVOICE_PYTHON: python })));

/** "torch 2.9.1 (/path/python)": how a row names an interpreter. */
export const pythonLabel = (p: TrainerPython) => `torch ${p.torch.split('+')[0]} (${p.python})`;

/**
 * One sample of training tokens/s on `python` at `preset` (its sequence length, batch, rank,
 * micro-batches, gradient checkpointing, and its mixed precision settled for that interpreter as
 * train-voice.ts settles it): the trainer's bench-train over `steps` steps, the first untimed.
 */
export async function trainSample(
  python: TrainerPython,
  model: string,
  preset: VoicePreset,
  steps: number,
  threads: number,
): Promise<{ tokensPerSecond: number; bf16: boolean }> {
  const trainer = await TrainerProcess.open({ threads, python: python.python });
  try {
    const done = await trainer.run('bench-train', {
      model,
      loop: 'trainer',
      steps,
      seq_len: preset.seqLen,
      batch_size: preset.batchSize,
      rank: preset.rank,
      bf16: settledPrecision(preset.mixedPrecision ?? false, python),
      grad_checkpointing: preset.gradCheckpointing ?? false,
      micro_batch_tokens: preset.microBatchTokens ?? null,
    });
    return { tokensPerSecond: Number(done.tokens_per_second), bf16: done.bf16 === true };
  } finally {
    await trainer.close();
  }
}

export interface ParaphraseWork {
  prompts: number[][];
  maxNew: number[];
}

/**
 * The pairs stage's requests for the first `count` passages of the real Voice's writing: chat
 * prompts tokenized by the model's own template, each with its paraphrase budget.
 */
export async function paraphraseWork(
  model: string,
  preset: VoicePreset,
  count: number,
  threads: number,
): Promise<ParaphraseWork> {
  const passages = splitPassages(realVoiceText(20_000), { maxChars: preset.passageMaxChars }).slice(0, count);
  const engine = await VoiceEngine.start({ modelPath: model, threads });
  try {
    const runtime = engine.runtime;
    return {
      prompts: passages.map((p) => runtime.chatPromptTokens(paraphraseChat(p))),
      maxNew: passages.map((p) => paraphraseSettings(runtime.tokenize(p).length).maxTokens),
    };
  } finally {
    await engine.dispose();
  }
}

export interface GenerateSample {
  /** The trainer's own figure: tokens over its decoding time, the model's load excluded. */
  tokensPerSecond: number;
  /** From starting the process to its answer: interpreter, torch's import, the model's load, decoding. */
  wallSeconds: number;
  tokens: number;
  bf16: boolean;
}

/**
 * One run of the trainer's `generate` on `python`, as the pairs stage asks it on a CPU (the
 * request generateOnTrainer sends, batches of trainerDecoding's size, the preset's precision
 * settled for the interpreter), but with no stop tokens: every answer is its whole budget on
 * both interpreters, whose greedy choices may part in bfloat16.
 */
export async function generateSample(
  python: TrainerPython,
  model: string,
  preset: VoicePreset,
  work: ParaphraseWork,
  threads: number,
  batchSize: number,
): Promise<GenerateSample> {
  const started = performance.now();
  const trainer = await TrainerProcess.open({ threads, python: python.python });
  try {
    let bf16 = false;
    const done = await trainer.run(
      'generate',
      {
        model,
        adapter: null,
        prompts: work.prompts,
        max_new: work.maxNew,
        stop_ids: [],
        device: 'cpu',
        batch_size: batchSize,
        mixed_precision: settledPrecision(preset.mixedPrecision ?? false, python),
      },
      {
        onEvent: (e) => {
          if (e.event === 'start') bf16 = e.bf16 === true;
        },
      },
    );
    return {
      tokensPerSecond: Number(done.tokens_per_second),
      wallSeconds: (performance.now() - started) / 1000,
      tokens: Number(done.tokens),
      bf16,
    };
  } finally {
    await trainer.close();
  }
}
