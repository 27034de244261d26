// safetensors: u64 little-endian header length, a JSON header {name: {dtype, shape,
// data_offsets}}, then the raw little-endian data. Used for the trainer's outputs and the
// PEFT export that vLLM and transformers load.
import { readFileSync, writeFileSync } from 'node:fs';

export interface NamedTensor {
  shape: number[];
  data: Float32Array;
}

export function readSafetensors(path: string): { tensors: Map<string, NamedTensor>; metadata: Record<string, string> } {
  const raw = readFileSync(path);
  if (raw.length < 8) throw new Error(`${path} is not a safetensors file`);
  const n = Number(raw.readBigUInt64LE(0));
  if (n > raw.length - 8) throw new Error(`${path} is truncated`);
  const header = JSON.parse(raw.subarray(8, 8 + n).toString('utf8')) as Record<string, unknown>;
  const metadata = (header.__metadata__ ?? {}) as Record<string, string>;
  delete header.__metadata__;
  const tensors = new Map<string, NamedTensor>();
  for (const [name, info] of Object.entries(header) as [
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] },
  ][]) {
    if (info.dtype !== 'F32') throw new Error(`${path}: ${name} is ${info.dtype}; only F32 is read`);
    const [s, e] = info.data_offsets;
    const bytes = raw.subarray(8 + n + s, 8 + n + e);
    const data = new Float32Array(bytes.length / 4);
    for (let i = 0; i < data.length; i++) data[i] = bytes.readFloatLE(i * 4);
    tensors.set(name, { shape: info.shape, data });
  }
  return { tensors, metadata };
}

export function writeSafetensors(
  path: string,
  tensors: Map<string, NamedTensor>,
  metadata: Record<string, string> = {},
): void {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const [name, t] of tensors) {
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + t.data.byteLength] };
    offset += t.data.byteLength;
  }
  if (Object.keys(metadata).length) header.__metadata__ = metadata;
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  const parts: Buffer[] = [head, Buffer.from(json, 'utf8')];
  for (const t of tensors.values()) parts.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  writeFileSync(path, Buffer.concat(parts));
}
