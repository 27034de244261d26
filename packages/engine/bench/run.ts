// `npm run bench`: the engine's speed and memory figures, printed as a table. Not a test: the
// numbers depend on the machine; targets are printed beside them.
//   1. LoRA training tokens/s of the trainer vs a plain PyTorch loop of the same shape (target >= 0.9x)
//   2. waking and sleeping a rank-16 Voice on a SmolLM2-135M-shaped model (target < 1 s)
//   3. generation tokens/s with and without a Voice awake (target: the Voice costs <= 15%)
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { writeGgufAdapter } from '../src/adapters/export.js';
import type { NamedTensor } from '../src/adapters/safetensors.js';
import { expectedTensors, LORA_TARGETS, type ModelHparams } from '../src/gguf/model-spec.js';
import { GgmlType } from '../src/gguf/types.js';
import { randomWeights, seededRandom, writeLlamaGguf } from '../src/model/llama-gguf.js';
import { VoiceEngine } from '../src/runtime/voice-engine.js';
import { tempDir, testVocab } from '../src/test/fixtures.js';
import { tokenizerKv } from '../src/tokenizer/gguf-tokenizer.js';
import { runTrainer } from '../src/trainer/python.js';

const threads = Math.max(1, cpus().length);
const rows: [string, string, string][] = [];
const row = (what: string, value: string, target = '') => {
  rows.push([what, value, target]);
  console.log(`  ${what}: ${value}${target ? `  (target ${target})` : ''}`);
};

/** SmolLM2-135M's shape (random weights): 30 layers, 576 wide, 9 heads / 3 kv heads, 49152 tokens. */
const SMOLLM2_135M: Omit<ModelHparams, 'nVocab'> = {
  arch: 'llama',
  nLayer: 30,
  nEmbd: 576,
  nFf: 1536,
  nHead: 9,
  nHeadKv: 3,
  headDim: 64,
  nCtx: 2048,
  rmsEps: 1e-5,
  ropeBase: 10000,
  tiedOutput: true,
};

function writeSyntheticModel(dir: string, vocabSize: number): string {
  // A real BPE vocabulary padded with plain ASCII tokens up to the model's vocabulary size.
  const vocab = testVocab();
  const tokens = [...vocab.tokens];
  for (let i = 0; tokens.length < vocabSize; i++) tokens.push(`<pad${i}>`);
  const h: ModelHparams = { ...SMOLLM2_135M, nVocab: vocabSize };
  const file = path.join(dir, 'smollm2-135m-shape.gguf');
  writeLlamaGguf(file, h, randomWeights(h, 7, 0.02), tokenizerKv({ ...vocab, tokens }), { matrixType: GgmlType.F16 });
  return file;
}

function writeRandomAdapter(dir: string, h: ModelHparams, rank: number): string {
  const rand = seededRandom(3);
  const shapes = expectedTensors(h);
  const tensors = new Map<string, NamedTensor>();
  for (let i = 0; i < h.nLayer; i++) {
    for (const t of LORA_TARGETS) {
      const [inDim, outDim] = shapes.get(`blk.${i}.${t}.weight`) as [number, number];
      const a = Float32Array.from({ length: rank * inDim }, () => (rand() - 0.5) * 0.02);
      const b = Float32Array.from({ length: outDim * rank }, () => (rand() - 0.5) * 0.02);
      tensors.set(`blk.${i}.${t}.weight.lora_a`, { shape: [rank, inDim], data: a });
      tensors.set(`blk.${i}.${t}.weight.lora_b`, { shape: [outDim, rank], data: b });
    }
  }
  const file = path.join(dir, `voice-r${rank}-v1.gguf`);
  writeGgufAdapter(file, { arch: h.arch, rank, alpha: 2 * rank, tensors });
  return file;
}

async function main() {
  const dir = tempDir('ownvoice-bench-');
  try {
    console.log(`OwnVoice engine benchmarks (${threads} threads)`);
    const vocabSize = 49152;
    const h: ModelHparams = { ...SMOLLM2_135M, nVocab: vocabSize };
    console.log('writing a SmolLM2-135M-shaped model (random weights, F16)...');
    const modelPath = writeSyntheticModel(dir, vocabSize);

    console.log('1. LoRA training throughput (rank 16, all projections, seq 256, batch 1)');
    const train = await runTrainer('bench-train', {
      model: modelPath,
      steps: 6,
      seq_len: 256,
      batch_size: 1,
      rank: 16,
    });
    row('trainer tokens/s', Number(train.trainer_tokens_per_second).toFixed(0));
    row('plain PyTorch loop tokens/s', Number(train.plain_tokens_per_second).toFixed(0));
    row('trainer / plain loop', `${Number(train.ratio).toFixed(2)}x`, '>= 0.90x');
    row('training peak memory', `${Number(train.peak_rss_mib).toFixed(0)} MiB`);

    console.log('2. Waking and sleeping a rank-16 Voice');
    const engine = await VoiceEngine.start({ modelPath, threads });
    const adapter = writeRandomAdapter(dir, h, 16);
    const wakes: number[] = [];
    const sleeps: number[] = [];
    for (let i = 0; i < 5; i++) {
      wakes.push((await engine.wake('bench', adapter)).milliseconds);
      const t = performance.now();
      await engine.sleep('bench');
      sleeps.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    row('wake (median of 5)', `${median(wakes).toFixed(0)} ms`, '< 1000 ms');
    row('sleep (median of 5)', `${median(sleeps).toFixed(0)} ms`);

    console.log('3. Generation speed with and without a Voice (64 tokens, greedy)');
    await engine.wake('bench', adapter);
    const prompt = 'It was a bright cold day in April, and the clocks were striking thirteen.';
    const speed = async (voiceId?: string) => {
      await engine.complete(prompt, { maxTokens: 8, ...(voiceId ? { voiceId } : {}) }); // warm-up
      let tokens = 0;
      const t = performance.now();
      for (let i = 0; i < 3; i++) {
        const text = await engine.complete(prompt, { maxTokens: 64, ...(voiceId ? { voiceId } : {}) });
        tokens += engine.runtime.tokenize(text).length;
      }
      return tokens / ((performance.now() - t) / 1000);
    };
    const base = await speed();
    const voice = await speed('bench');
    row('base model tokens/s', base.toFixed(1));
    row('with a Voice tokens/s', voice.toFixed(1));
    row('cost of the Voice', `${((1 - voice / base) * 100).toFixed(1)}%`, '<= 15%');
    await engine.dispose();

    console.log('\n| benchmark | result | target |\n|---|---|---|');
    for (const [what, value, target] of rows) console.log(`| ${what} | ${value} | ${target} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
