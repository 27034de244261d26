// safetensors: u64 little-endian header length, a JSON header {name: {dtype, shape,
// data_offsets}}, then the raw little-endian data. Used for the trainer's outputs and the
// PEFT export that vLLM and transformers load.
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';

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

/** The largest header an adapter's safetensors may have: a 0.5B model's adapter needs about 60 KB. */
export const MAX_ADAPTER_SAFETENSORS_HEADER = 1024 * 1024;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * Checks, without reading the weights, that a safetensors file holds exactly the F32 tensors
 * `expected` names with their shapes (torch order), each in its own byte range, back to back,
 * ending where the file ends; and that its metadata is a small map of strings. Throws an Error
 * saying what does not fit. What transformers and vLLM read is then what the adapter is.
 */
export function checkSafetensors(path: string, expected: ReadonlyMap<string, readonly number[]>): void {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(8);
    if (size < 8 || readSync(fd, head, 0, 8, 0) !== 8) throw new Error('it is not a safetensors file');
    const n = head.readBigUInt64LE(0);
    if (n > BigInt(Math.min(MAX_ADAPTER_SAFETENSORS_HEADER, size - 8))) {
      throw new Error(`its header claims ${n} bytes, more than the file or an adapter holds`);
    }
    const json = Buffer.alloc(Number(n));
    readSync(fd, json, 0, json.length, 8);
    let header: unknown;
    try {
      header = JSON.parse(json.toString('utf8'));
    } catch {
      throw new Error('its header is not JSON');
    }
    if (!header || typeof header !== 'object' || Array.isArray(header)) throw new Error('its header is not a map');
    const { __metadata__: metadata, ...tensors } = header as Record<string, unknown>;
    if (
      metadata !== undefined &&
      (!metadata ||
        typeof metadata !== 'object' ||
        Object.values(metadata).some((v) => typeof v !== 'string' || v.length > 256) ||
        Object.keys(metadata).length > 16)
    ) {
      throw new Error('its metadata is not a small map of strings');
    }
    const ranges: [number, number][] = [];
    for (const [name, info] of Object.entries(tensors)) {
      const shape = expected.get(name);
      if (!shape) throw new Error(`it holds ${name.slice(0, 120)}, which the adapter does not`);
      const { dtype, shape: actual, data_offsets: offsets } = (info ?? {}) as Record<string, unknown>;
      if (dtype !== 'F32') throw new Error(`${name} is not F32`);
      if (
        !Array.isArray(actual) ||
        actual.length !== shape.length ||
        !actual.every((d, i) => isCount(d) && d === shape[i])
      ) {
        throw new Error(`${name} has shape [${String(actual).slice(0, 60)}], expected [${shape}]`);
      }
      if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) {
        throw new Error(`${name} has no byte range`);
      }
      const [start, end] = offsets as [number, number];
      if (end - start !== shape.reduce((a, b) => a * b, 4))
        throw new Error(`${name}'s byte range does not fit its shape`);
      ranges.push([start, end]);
    }
    if (ranges.length !== expected.size)
      throw new Error(`it holds ${ranges.length} tensors; the adapter has ${expected.size}`);
    // Back to back from the start of the data to the end of the file: no overlap, no gap, no tail.
    ranges.sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [start, end] of ranges) {
      if (start !== at) throw new Error('its tensors overlap or leave gaps');
      at = end;
    }
    if (8 + Number(n) + at !== size) throw new Error('its tensors do not end where the file ends');
  } finally {
    closeSync(fd);
  }
}
