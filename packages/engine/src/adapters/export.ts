// Exports a trained adapter (the trainer's adapter.safetensors, in GGUF layout) as
//  - a GGUF LoRA adapter for llama.cpp: tensors "blk.N.<target>.weight.lora_a" with ne
//    [in, r] and ".lora_b" with ne [r, out], plus adapter.lora.alpha; llama.cpp then adds
//    (alpha / r) * B(A x) to each targeted projection;
//  - a PEFT adapter (adapter_config.json + adapter_model.safetensors) for vLLM and
//    transformers, with Hugging Face module names and, for llama, attn_q/attn_k rows put back
//    in Hugging Face order: llama.cpp's converter permutes those rows so RoPE rotates adjacent
//    pairs, and B's rows are output rows, so they carry the permutation.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Architecture, ModelHparams } from '../gguf/model-spec.js';
import { GgmlType } from '../gguf/types.js';
import { kv, type TensorToWrite, writeGguf } from '../gguf/writer.js';
import { type NamedTensor, readSafetensors, writeSafetensors } from './safetensors.js';

export interface TrainedAdapter {
  arch: Architecture;
  rank: number;
  alpha: number;
  /** "blk.N.target.weight.lora_a|b" -> torch-shaped tensor ((r, in) or (out, r)). */
  tensors: Map<string, NamedTensor>;
}

export function readTrainedAdapter(file: string): TrainedAdapter {
  const { tensors, metadata } = readSafetensors(file);
  const arch = metadata.arch as Architecture;
  return { arch, rank: Number(metadata.rank), alpha: Number(metadata.alpha), tensors };
}

export function writeGgufAdapter(file: string, adapter: TrainedAdapter, name = 'ownvoice-voice'): void {
  const tensors: TensorToWrite[] = [];
  for (const [tensorName, t] of [...adapter.tensors].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
    const [rows, cols] = t.shape as [number, number];
    // torch (rows, cols) row-major == ggml ne [cols, rows]
    tensors.push({ name: tensorName, dims: [cols, rows], type: GgmlType.F32, data: t.data });
  }
  writeGguf(
    file,
    [
      kv.str('general.architecture', adapter.arch),
      kv.str('general.type', 'adapter'),
      kv.str('general.name', name),
      kv.str('adapter.type', 'lora'),
      kv.f32('adapter.lora.alpha', adapter.alpha),
    ],
    tensors,
  );
}

const HF_MODULE: Record<string, string> = {
  attn_q: 'self_attn.q_proj',
  attn_k: 'self_attn.k_proj',
  attn_v: 'self_attn.v_proj',
  attn_output: 'self_attn.o_proj',
  ffn_gate: 'mlp.gate_proj',
  ffn_up: 'mlp.up_proj',
  ffn_down: 'mlp.down_proj',
};

/**
 * Inverse of llama.cpp's permute(w, n_head): rows grouped per head as (2, D/2) pairs in HF
 * order were stored as (D/2, 2). Rows of length `cols`.
 */
export function unpermuteRows(data: Float32Array, rows: number, cols: number, nHead: number): Float32Array {
  const out = new Float32Array(data.length);
  const half = rows / nHead / 2;
  for (let h = 0; h < nHead; h++) {
    for (let i = 0; i < half; i++) {
      for (let j = 0; j < 2; j++) {
        const gguf = h * 2 * half + i * 2 + j; // GGUF row: (head, i, j)
        const hf = h * 2 * half + j * half + i; // HF row:   (head, j, i)
        out.set(data.subarray(gguf * cols, gguf * cols + cols), hf * cols);
      }
    }
  }
  return out;
}

/** Hugging Face's name for a GGUF adapter tensor "blk.N.<target>.weight.lora_a|b"; null for another. */
export function peftTensorName(ggufName: string): { name: string; layer: string; target: string; ab: string } | null {
  const m = /^blk\.(\d+)\.(\w+)\.weight\.lora_(a|b)$/.exec(ggufName);
  if (!m) return null;
  const [, layer, target, ab] = m as unknown as [string, string, string, 'a' | 'b'];
  const module = HF_MODULE[target];
  if (!module) return null;
  return {
    name: `base_model.model.model.layers.${layer}.${module}.lora_${ab.toUpperCase()}.weight`,
    layer,
    target,
    ab,
  };
}

/** Hugging Face's short module name (q_proj ...) of a GGUF target (attn_q ...). */
export const peftModuleName = (target: string): string | undefined => HF_MODULE[target]?.split('.')[1];

/** The PEFT adapter_config.json of an adapter: what vLLM and transformers read. */
export function peftConfig(adapter: { rank: number; alpha: number; targets: Iterable<string> }, baseModelName: string) {
  return {
    peft_type: 'LORA',
    task_type: 'CAUSAL_LM',
    base_model_name_or_path: baseModelName,
    r: adapter.rank,
    lora_alpha: adapter.alpha,
    lora_dropout: 0,
    bias: 'none',
    target_modules: [...new Set(adapter.targets)].sort(),
    fan_in_fan_out: false,
    inference_mode: true,
    use_rslora: false,
  };
}

export const writePeftConfig = (dir: string, config: ReturnType<typeof peftConfig>): void =>
  writeFileSync(path.join(dir, 'adapter_config.json'), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });

export function writePeftAdapter(
  dir: string,
  adapter: TrainedAdapter,
  base: ModelHparams,
  baseModelName: string,
): void {
  mkdirSync(dir, { recursive: true });
  const out = new Map<string, NamedTensor>();
  const targets = new Set<string>();
  for (const [name, t] of adapter.tensors) {
    const peft = peftTensorName(name);
    if (!peft) throw new Error(`unexpected adapter tensor ${name}`);
    const { target, ab } = peft;
    targets.add(peftModuleName(target) as string);
    let data = t.data;
    if (ab === 'b' && base.arch === 'llama' && (target === 'attn_q' || target === 'attn_k')) {
      const [rows, cols] = t.shape as [number, number];
      data = unpermuteRows(data, rows, cols, target === 'attn_q' ? base.nHead : base.nHeadKv);
    }
    out.set(peft.name, { shape: t.shape, data });
  }
  writeSafetensors(path.join(dir, 'adapter_model.safetensors'), out, { format: 'pt' });
  writePeftConfig(dir, peftConfig({ rank: adapter.rank, alpha: adapter.alpha, targets }, baseModelName));
}
