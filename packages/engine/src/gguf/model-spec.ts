// What a llama or qwen2 model file must hold for OwnVoice to train on it and for llama.cpp to
// load it: hyperparameters in the metadata and every tensor with its shape. llama.cpp aborts
// the whole process on some missing keys (llama.attention.head_count, llama.feed_forward_length),
// so files are checked here first.
import { GgufError } from './errors.js';
import { ADAPTER_HEADER_LIMITS, kvValue, readGguf } from './reader.js';
import { GgmlType, type GgufFile, type GgufTensorInfo, ggmlTypeName } from './types.js';

export const SUPPORTED_ARCHITECTURES = ['llama', 'qwen2'] as const;
export type Architecture = (typeof SUPPORTED_ARCHITECTURES)[number];

export interface ModelHparams {
  arch: Architecture;
  nLayer: number;
  nEmbd: number;
  nFf: number;
  nHead: number;
  nHeadKv: number;
  headDim: number;
  nVocab: number;
  nCtx: number;
  rmsEps: number;
  ropeBase: number;
  /** true when there is no output.weight and the embedding is reused (tied). */
  tiedOutput: boolean;
}

/** The projections a LoRA adapter may target, by their GGUF names. */
export const LORA_TARGETS = ['attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_gate', 'ffn_up', 'ffn_down'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

function num(file: GgufFile, path: string, key: string, fallback?: number): number {
  const v = kvValue(file, key);
  if (v === undefined) {
    if (fallback !== undefined) return fallback;
    throw new GgufError(`${path} lacks the metadata key ${key}; it is not a complete model file.`);
  }
  const n = Number(v);
  if (!Number.isFinite(n)) throw new GgufError(`${path}: ${key} is not a number.`);
  return n;
}

export function architectureOf(file: GgufFile, path: string): Architecture {
  const arch = kvValue(file, 'general.architecture');
  if (typeof arch !== 'string') throw new GgufError(`${path} lacks general.architecture.`);
  if (!(SUPPORTED_ARCHITECTURES as readonly string[]).includes(arch)) {
    throw new GgufError(
      `${path} is a ${arch} model; OwnVoice supports ${SUPPORTED_ARCHITECTURES.join(' and ')} models.`,
    );
  }
  return arch as Architecture;
}

/** Expected ggml shapes (ne order) of every tensor of a model with these hyperparameters. */
export function expectedTensors(h: ModelHparams): Map<string, number[]> {
  const m = new Map<string, number[]>();
  const q = h.nHead * h.headDim;
  const kvDim = h.nHeadKv * h.headDim;
  m.set('token_embd.weight', [h.nEmbd, h.nVocab]);
  m.set('output_norm.weight', [h.nEmbd]);
  if (!h.tiedOutput) m.set('output.weight', [h.nEmbd, h.nVocab]);
  for (let i = 0; i < h.nLayer; i++) {
    const b = `blk.${i}`;
    m.set(`${b}.attn_norm.weight`, [h.nEmbd]);
    m.set(`${b}.attn_q.weight`, [h.nEmbd, q]);
    m.set(`${b}.attn_k.weight`, [h.nEmbd, kvDim]);
    m.set(`${b}.attn_v.weight`, [h.nEmbd, kvDim]);
    m.set(`${b}.attn_output.weight`, [q, h.nEmbd]);
    if (h.arch === 'qwen2') {
      m.set(`${b}.attn_q.bias`, [q]);
      m.set(`${b}.attn_k.bias`, [kvDim]);
      m.set(`${b}.attn_v.bias`, [kvDim]);
    }
    m.set(`${b}.ffn_norm.weight`, [h.nEmbd]);
    m.set(`${b}.ffn_gate.weight`, [h.nEmbd, h.nFf]);
    m.set(`${b}.ffn_up.weight`, [h.nEmbd, h.nFf]);
    m.set(`${b}.ffn_down.weight`, [h.nFf, h.nEmbd]);
  }
  return m;
}

const sameShape = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** Reads and checks a model's hyperparameters and tensors; throws GgufError with the first problem. */
export function modelHparams(file: GgufFile, path: string): ModelHparams {
  const kind = kvValue(file, 'general.type');
  if (kind === 'adapter') throw new GgufError(`${path} is a LoRA adapter, not a base model.`);
  const arch = architectureOf(file, path);
  const nEmbd = num(file, path, `${arch}.embedding_length`);
  const nHead = num(file, path, `${arch}.attention.head_count`);
  const tokens = kvValue(file, 'tokenizer.ggml.tokens');
  if (!Array.isArray(tokens)) throw new GgufError(`${path} has no tokenizer (tokenizer.ggml.tokens).`);
  const byName = new Map(file.tensors.map((t) => [t.name, t]));
  const h: ModelHparams = {
    arch,
    nLayer: num(file, path, `${arch}.block_count`),
    nEmbd,
    nFf: num(file, path, `${arch}.feed_forward_length`),
    nHead,
    nHeadKv: num(file, path, `${arch}.attention.head_count_kv`, nHead),
    headDim: num(file, path, `${arch}.attention.key_length`, nEmbd / nHead),
    nVocab: tokens.length,
    nCtx: num(file, path, `${arch}.context_length`),
    rmsEps: num(file, path, `${arch}.attention.layer_norm_rms_epsilon`),
    ropeBase: num(file, path, `${arch}.rope.freq_base`, 10000),
    tiedOutput: !byName.has('output.weight'),
  };
  for (const [k, v] of Object.entries(h)) {
    if (typeof v === 'number' && (!(v > 0) || (k !== 'rmsEps' && k !== 'ropeBase' && !Number.isInteger(v)))) {
      throw new GgufError(`${path}: ${k} is ${v}, which no working model has.`);
    }
  }
  for (const [name, dims] of expectedTensors(h)) {
    const t = byName.get(name);
    if (!t) throw new GgufError(`${path} lacks the tensor ${name}.`);
    if (!sameShape(t.dims, dims)) {
      throw new GgufError(`${path}: tensor ${name} has shape [${t.dims}], expected [${dims}].`);
    }
  }
  return h;
}

export interface AdapterInfo {
  arch: Architecture;
  alpha: number;
  rank: number;
  targets: LoraTarget[];
  tensors: GgufTensorInfo[];
}

/** The type of every tensor of a Voice's GGUF adapter (adapters/export.ts writes them). */
export const ADAPTER_TENSOR_TYPE = GgmlType.F32;

/**
 * A LoRA adapter's facts, checked against the base model it is for: its type, architecture,
 * alpha, and each tensor's name, type, shape and rank (readGguf has checked every sized tensor's
 * byte range lies in the file). Throws GgufError saying what does not fit.
 */
export function adapterInfo(file: GgufFile, path: string, base: ModelHparams): AdapterInfo {
  if (kvValue(file, 'general.type') !== 'adapter' || kvValue(file, 'adapter.type') !== 'lora') {
    throw new GgufError(`${path} is not a LoRA adapter (general.type must be "adapter", adapter.type "lora").`);
  }
  const arch = architectureOf(file, path);
  if (arch !== base.arch) throw new GgufError(`${path} was made for a ${arch} model, the base model is ${base.arch}.`);
  const alpha = num(file, path, 'adapter.lora.alpha');
  if (!(alpha > 0)) throw new GgufError(`${path}: adapter.lora.alpha is ${alpha}; it must be above 0.`);
  const shapes = expectedTensors(base);
  const byName = new Map(file.tensors.map((t) => [t.name, t]));
  let rank = 0;
  const targets = new Set<LoraTarget>();
  if (file.tensors.length === 0) throw new GgufError(`${path} holds no tensors.`);
  for (const t of file.tensors) {
    const m = /^(blk\.\d+\.(\w+)\.weight)\.lora_(a|b)$/.exec(t.name);
    const weight = m?.[1];
    const target = m?.[2] as LoraTarget | undefined;
    if (!m || !weight || !target || !LORA_TARGETS.includes(target)) {
      throw new GgufError(`${path}: unexpected tensor ${t.name} in a LoRA adapter.`);
    }
    // llama.cpp multiplies adapter tensors of any type it is handed, and a type its LoRA path
    // does not expect (I32) crashed the inference process: only what the trainer writes.
    if (t.type !== ADAPTER_TENSOR_TYPE) {
      throw new GgufError(`${path}: ${t.name} is ${ggmlTypeName(t.type)}; a Voice's adapter holds F32 tensors.`);
    }
    const w = shapes.get(weight);
    if (!w) throw new GgufError(`${path}: ${t.name} targets ${weight}, which the base model does not have.`);
    const [inDim, outDim] = w as [number, number];
    const other = byName.get(`${weight}.lora_${m[3] === 'a' ? 'b' : 'a'}`);
    if (!other) throw new GgufError(`${path}: ${t.name} has no partner lora_${m[3] === 'a' ? 'b' : 'a'}.`);
    // lora_a: ne [in, r]; lora_b: ne [r, out] (so llama.cpp computes b·(a·x)).
    const r = m[3] === 'a' ? t.dims[1] : t.dims[0];
    const ok = m[3] === 'a' ? sameShape(t.dims, [inDim, r ?? 0]) : sameShape(t.dims, [r ?? 0, outDim]);
    if (!ok || !r || r > Math.min(inDim, outDim)) {
      throw new GgufError(`${path}: ${t.name} has shape [${t.dims}], which does not fit ${weight}.`);
    }
    if (rank && r !== rank) throw new GgufError(`${path}: tensors disagree on the rank (${rank} and ${r}).`);
    rank = r;
    targets.add(target);
  }
  return { arch, alpha, rank, targets: [...targets], tensors: file.tensors };
}

/** Reads the LoRA adapter file at `path` within an adapter's header limits and checks it against `base`. */
export const readAdapter = (path: string, base: ModelHparams, name = path): AdapterInfo =>
  adapterInfo(readGguf(path, ADAPTER_HEADER_LIMITS), name, base);
