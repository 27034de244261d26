// Merges a Voice's LoRA adapter into its base model, W' = W + (alpha / r)·B·A for every targeted
// projection, and writes a standalone GGUF model: for apps that run a model file but cannot load
// an adapter beside it (and, in the tests, to prove llama.cpp applies adapters as the trainer does).
//
// A tensor at a time, so memory stays at the largest projection however large the base is:
//  - a targeted projection is decoded to float32, merged, and written as F16 (F32 when the base
//    holds F32). Requantizing it to the base's 4- or 8-bit type would round most of the
//    adapter's small changes away;
//  - every other tensor (embeddings, norms) is copied byte for byte, in the base's own type.
// The header comes first, so every size is known before a byte is written: the disk's free space
// is checked against the whole file before it is begun.
import { closeSync, openSync, readSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { adapterInfo, modelHparams } from '../gguf/model-spec.js';
import { encodeTensor } from '../gguf/quant.js';
import { ADAPTER_HEADER_LIMITS, readGguf, readTensor, tensorByteSize } from '../gguf/reader.js';
import { elementCount, GgmlType, type GgufFile, type GgufKv, type GgufTensorInfo } from '../gguf/types.js';
import { ggufFileBytes, kv as kvEntry, type StreamedTensor, writeGgufStreamed } from '../gguf/writer.js';

export interface MergeJob {
  /** The base model's GGUF file. */
  basePath: string;
  /** The Voice's GGUF LoRA adapter (adapters/export.ts), checked against the base before use. */
  adapterPath: string;
  outPath: string;
  /** The merged model's general.name (the Voice's name); the base's when not given. */
  name?: string;
}

/** A merge refused before it began: the disk has no room for it. */
export class MergeError extends Error {}

/** Room left on the disk besides the file itself, so a merge never fills it to the last byte. */
const DISK_MARGIN_BYTES = 64 * 1024 * 1024;
/** An untouched tensor is copied in pieces of this size. */
const COPY_CHUNK_BYTES = 4 * 1024 * 1024;

/** Writes the merged model to `job.outPath`; answers its size in bytes. */
export function mergeAdapter(job: MergeJob): { bytes: number } {
  const base = readGguf(job.basePath);
  const adapterFile = readGguf(job.adapterPath, ADAPTER_HEADER_LIMITS);
  const adapter = adapterInfo(adapterFile, job.adapterPath, modelHparams(base, job.basePath));
  const baseFd = openSync(job.basePath, 'r');
  try {
    const merge = { job, base, adapterFile, scale: adapter.alpha / adapter.rank, baseFd };
    const adapterTensors = new Set(adapterFile.tensors.map((a) => a.name));
    const tensors = base.tensors.map((t) =>
      adapterTensors.has(`${t.name}.lora_a`) ? mergedTensor(merge, t) : copiedTensor(merge, t),
    );
    const kv = renamed(base.kv, job.name);
    const bytes = ggufFileBytes(kv, tensors);
    checkRoom(path.dirname(job.outPath), bytes);
    writeGgufStreamed(job.outPath, kv, tensors);
    return { bytes };
  } finally {
    closeSync(baseFd);
  }
}

interface Merge {
  job: MergeJob;
  base: GgufFile;
  adapterFile: GgufFile;
  scale: number;
  baseFd: number;
}

/** W + scale·B·A, encoded as F16 (F32 for an F32 base). */
function mergedTensor({ job, base, adapterFile, scale }: Merge, t: GgufTensorInfo): StreamedTensor {
  const type = t.type === GgmlType.F32 ? GgmlType.F32 : GgmlType.F16;
  const bytes = elementCount(t.dims) * (type === GgmlType.F32 ? 4 : 2);
  return {
    name: t.name,
    dims: t.dims,
    type,
    bytes,
    chunks: () => {
      // ggml ne [in, out] is torch (out, in) row-major; lora_a ne [in, r] is (r, in); lora_b ne [r, out] is (out, r).
      const w = readTensor(job.basePath, base, t.name);
      const a = readTensor(job.adapterPath, adapterFile, `${t.name}.lora_a`);
      const b = readTensor(job.adapterPath, adapterFile, `${t.name}.lora_b`);
      const [inDim, outDim] = t.dims as [number, number];
      const r = a.length / inDim;
      addLowRank(w, { a, b, inDim, outDim, r, scale });
      return [encodeTensor(w, type)];
    },
  };
}

/** w (out, in) += scale · b (out, r) · a (r, in), in place. */
function addLowRank(
  w: Float32Array,
  {
    a,
    b,
    inDim,
    outDim,
    r,
    scale,
  }: { a: Float32Array; b: Float32Array; inDim: number; outDim: number; r: number; scale: number },
): void {
  for (let o = 0; o < outDim; o++) {
    const row = o * inDim;
    for (let k = 0; k < r; k++) {
      const bok = (b[o * r + k] as number) * scale;
      if (bok === 0) continue;
      const arow = k * inDim;
      for (let i = 0; i < inDim; i++) w[row + i] = (w[row + i] as number) + bok * (a[arow + i] as number);
    }
  }
}

/** A tensor the adapter leaves alone: its bytes as the base holds them. */
function copiedTensor({ base, baseFd }: Merge, t: GgufTensorInfo): StreamedTensor {
  // The base is a model the server runs, every tensor of a type it decodes (readGguf checked the sizes).
  const bytes = tensorByteSize(t) as number;
  const start = base.dataOffset + t.offset;
  return {
    name: t.name,
    dims: t.dims,
    type: t.type,
    bytes,
    chunks: function* () {
      for (let done = 0; done < bytes; ) {
        const piece = Buffer.alloc(Math.min(COPY_CHUNK_BYTES, bytes - done));
        const read = readSync(baseFd, piece, 0, piece.length, start + done);
        if (read === 0) return;
        done += read;
        yield read === piece.length ? piece : piece.subarray(0, read);
      }
    },
  };
}

/** The base's metadata with the Voice's name as the model's. */
function renamed(kv: GgufKv[], name: string | undefined): GgufKv[] {
  if (!name) return kv;
  const entry = kvEntry.str('general.name', name);
  return kv.some((e) => e.key === 'general.name') ? kv.map((e) => (e.key === entry.key ? entry : e)) : [...kv, entry];
}

function checkRoom(dir: string, bytes: number): void {
  const { bavail, bsize } = statfsSync(dir);
  const free = Number(bavail) * Number(bsize);
  if (free < bytes + DISK_MARGIN_BYTES) {
    const mb = (n: number) => `${Math.ceil(n / (1024 * 1024))} MB`;
    throw new MergeError(`The merged model needs ${mb(bytes)} of disk, and the server has ${mb(free)} free.`);
  }
}
