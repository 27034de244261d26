// Writes a llama-architecture model as GGUF from float weights in PyTorch layout, and makes
// random models of any shape (tests, benchmarks). Weight layout conventions:
//   PyTorch Linear weight [out, in], row-major  ==  ggml ne [in, out]: the same bytes.
//   attn_q / attn_k rows are in llama.cpp's order (interleaved RoPE pairs); see rope.md.

import { seededRandom } from '../seeded-random.js';
import { expectedTensors, type ModelHparams } from './model-spec.js';
import { GgmlType, type GgufKv } from './types.js';
import { kv, type TensorToWrite, writeGguf } from './writer.js';

export function llamaKv(h: ModelHparams, name: string): GgufKv[] {
  const a = h.arch;
  return [
    kv.str('general.architecture', a),
    kv.str('general.name', name),
    kv.u32('general.alignment', 32),
    kv.u32(`${a}.block_count`, h.nLayer),
    kv.u32(`${a}.context_length`, h.nCtx),
    kv.u32(`${a}.embedding_length`, h.nEmbd),
    kv.u32(`${a}.feed_forward_length`, h.nFf),
    kv.u32(`${a}.attention.head_count`, h.nHead),
    kv.u32(`${a}.attention.head_count_kv`, h.nHeadKv),
    kv.u32(`${a}.rope.dimension_count`, h.headDim),
    kv.f32(`${a}.rope.freq_base`, h.ropeBase),
    kv.f32(`${a}.attention.layer_norm_rms_epsilon`, h.rmsEps),
    kv.u32(`${a}.vocab_size`, h.nVocab),
  ];
}

/** Random weights of the right shapes: norms near 1, matrices with spread `scale`. */
export function randomWeights(h: ModelHparams, seed: number, scale = 0.05): Map<string, Float32Array> {
  const rand = seededRandom(seed);
  const gauss = () => {
    // Irwin-Hall approximation: cheap and deterministic.
    let s = 0;
    for (let i = 0; i < 6; i++) s += rand();
    return (s - 3) / Math.SQRT2;
  };
  const out = new Map<string, Float32Array>();
  for (const [name, dims] of expectedTensors(h)) {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    const isNorm = name.endsWith('norm.weight');
    for (let i = 0; i < n; i++) data[i] = isNorm ? 1 + 0.1 * gauss() : scale * gauss();
    out.set(name, data);
  }
  return out;
}

/**
 * Initial weights for training from scratch (GPT-2's scheme): norms 1, matrices N(0, 0.02),
 * and the projections that write into the residual stream scaled by 1/sqrt(2 * layers).
 */
export function initialWeights(h: ModelHparams, seed: number): Map<string, Float32Array> {
  const rand = seededRandom(seed);
  const gauss = () => {
    // Box-Muller
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const out = new Map<string, Float32Array>();
  for (const [name, dims] of expectedTensors(h)) {
    const n = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    if (name.endsWith('norm.weight')) data.fill(1);
    else if (!name.endsWith('.bias')) {
      const residual = name.endsWith('attn_output.weight') || name.endsWith('ffn_down.weight');
      const std = residual ? 0.02 / Math.sqrt(2 * h.nLayer) : 0.02;
      for (let i = 0; i < n; i++) data[i] = std * gauss();
    }
    out.set(name, data);
  }
  return out;
}

export function writeLlamaGguf(
  path: string,
  h: ModelHparams,
  weights: Map<string, Float32Array>,
  extraKv: GgufKv[],
  options: { name?: string; matrixType?: GgmlType } = {},
): void {
  const tensors: TensorToWrite[] = [];
  for (const [name, dims] of expectedTensors(h)) {
    const data = weights.get(name);
    if (!data) throw new Error(`missing weight ${name}`);
    // Norms and biases stay F32 (as llama.cpp's converters do); matrices take the chosen type.
    const isVector = dims.length === 1;
    tensors.push({ name, dims, type: isVector ? GgmlType.F32 : (options.matrixType ?? GgmlType.F32), data });
  }
  writeGguf(path, [...llamaKv(h, options.name ?? 'ownvoice'), ...extraKv], tensors);
}
