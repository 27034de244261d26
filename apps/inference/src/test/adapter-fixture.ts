// A LoRA adapter for a base model in milliseconds, for tests that load one rather than test
// training: random low-rank weights on every layer's attention projections, written as a GGUF
// adapter by the engine's own exporter, so it is exactly the kind of file a trained Voice is.
import {
  HOUSE_MODEL_PATH,
  modelHparams,
  readGguf,
  seededRandom,
  type TrainedAdapter,
  writeGgufAdapter,
} from '@ownvoice/engine';

export function writeRandomAdapter(file: string, options: { modelPath?: string; seed?: number } = {}): string {
  const modelPath = options.modelPath ?? HOUSE_MODEL_PATH;
  const h = modelHparams(readGguf(modelPath), modelPath);
  const next = seededRandom(options.seed ?? 1);
  const rank = 4;
  const weights = (n: number) => Float32Array.from({ length: n }, () => (next() - 0.5) * 0.2);
  const tensors: TrainedAdapter['tensors'] = new Map();
  const outputs = { attn_q: h.nHead * h.headDim, attn_v: h.nHeadKv * h.headDim };
  for (let layer = 0; layer < h.nLayer; layer++) {
    for (const [target, out] of Object.entries(outputs)) {
      // torch shapes: A is (rank, in), B is (out, rank).
      tensors.set(`blk.${layer}.${target}.weight.lora_a`, { shape: [rank, h.nEmbd], data: weights(rank * h.nEmbd) });
      tensors.set(`blk.${layer}.${target}.weight.lora_b`, { shape: [out, rank], data: weights(out * rank) });
    }
  }
  writeGgufAdapter(file, { arch: h.arch, rank, alpha: 2 * rank, tensors });
  return file;
}
