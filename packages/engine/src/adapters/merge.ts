// Merges a LoRA adapter into its base model: W' = W + (alpha / r) * B·A for every targeted
// projection, written as a new GGUF model. Used to prove llama.cpp applies adapters as the
// trainer does, and for users who want a standalone model.
import { readGguf, readTensor } from '../gguf/reader.js';
import { GgmlType } from '../gguf/types.js';
import { type TensorToWrite, writeGguf } from '../gguf/writer.js';
import type { TrainedAdapter } from './export.js';

export function mergeAdapter(basePath: string, adapter: TrainedAdapter, outPath: string): void {
  const base = readGguf(basePath);
  const scale = adapter.alpha / adapter.rank;
  const tensors: TensorToWrite[] = base.tensors.map((t) => {
    const data = readTensor(basePath, base, t.name);
    const a = adapter.tensors.get(`${t.name}.lora_a`);
    const b = adapter.tensors.get(`${t.name}.lora_b`);
    if (a && b) {
      const [outDim, r] = b.shape as [number, number];
      const inDim = (a.shape as [number, number])[1];
      // data is torch-shaped (out, in) row-major
      for (let o = 0; o < outDim; o++) {
        for (let k = 0; k < r; k++) {
          const bok = (b.data[o * r + k] as number) * scale;
          if (bok === 0) continue;
          const row = o * inDim;
          const arow = k * inDim;
          for (let i = 0; i < inDim; i++)
            data[row + i] = (data[row + i] as number) + bok * (a.data[arow + i] as number);
        }
      }
    }
    return { name: t.name, dims: t.dims, type: GgmlType.F32, data };
  });
  writeGguf(outPath, base.kv, tensors);
}
