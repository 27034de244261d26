// GGUF v3 as llama.cpp reads it (ggml/include/gguf.h, docs/gguf.md):
//   header   magic "GGUF" | version u32 | tensor_count u64 | kv_count u64
//   kv*      key:string | value_type u32 | value
//   tensor*  name:string | n_dims u32 | ne[n_dims] u64 | ggml_type u32 | offset u64
//   padding  to general.alignment (default 32)
//   data     each tensor at its offset from here, each offset a multiple of the alignment
// Strings are u64 length + UTF-8 bytes. Dimensions are ggml's ne: ne[0] is the innermost
// (contiguous) one, so a PyTorch weight [out, in] is stored with ne = [in, out].

export const GGUF_MAGIC = 0x46554747; // "GGUF" read as little-endian u32
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

export enum GgufValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

export type GgufScalar = number | bigint | boolean | string;
export type GgufValue = GgufScalar | GgufScalar[];

/** A metadata entry with its declared type, so files round-trip exactly. */
export interface GgufKv {
  key: string;
  type: GgufValueType;
  /** For ARRAY: the element type. */
  arrayType?: GgufValueType;
  value: GgufValue;
}

/** ggml tensor types this project reads or writes. */
export enum GgmlType {
  F32 = 0,
  F16 = 1,
  Q4_0 = 2,
  Q4_1 = 3,
  Q5_0 = 6,
  Q5_1 = 7,
  Q8_0 = 8,
  Q8_1 = 9,
  Q2_K = 10,
  Q3_K = 11,
  Q4_K = 12,
  Q5_K = 13,
  Q6_K = 14,
  Q8_K = 15,
  // Integer and double tensors (ggml.h): never in a model or adapter OwnVoice writes; named so a
  // file that holds them is refused by name.
  I8 = 24,
  I16 = 25,
  I32 = 26,
  I64 = 27,
  F64 = 28,
  BF16 = 30,
}

/**
 * Elements per block and bytes per block of the types whose data we can decode. The layouts are
 * ggml's block structs (ggml/src/ggml-common.h); quant.ts decodes them as ggml-quants.c does. A
 * row (ne[0]) is always whole blocks, so a tensor's bytes are its element count / blockSize *
 * blockBytes.
 */
export const DECODABLE_TYPES: Partial<Record<GgmlType, { blockSize: number; blockBytes: number }>> = {
  [GgmlType.F32]: { blockSize: 1, blockBytes: 4 },
  [GgmlType.F16]: { blockSize: 1, blockBytes: 2 },
  [GgmlType.BF16]: { blockSize: 1, blockBytes: 2 },
  // block_q8_0: f16 d, i8 qs[32]; w = d * q.
  [GgmlType.Q8_0]: { blockSize: 32, blockBytes: 34 },
  // block_q4_0: f16 d, u8 qs[16] (two 4-bit q a byte); w = d * (q - 8).
  [GgmlType.Q4_0]: { blockSize: 32, blockBytes: 18 },
  // block_q4_1: f16 d, f16 m, u8 qs[16]; w = d * q + m.
  [GgmlType.Q4_1]: { blockSize: 32, blockBytes: 20 },
  // block_q5_0: f16 d, u8 qh[4] (each q's fifth bit), u8 qs[16]; w = d * (q - 16).
  [GgmlType.Q5_0]: { blockSize: 32, blockBytes: 22 },
  // block_q5_1: f16 d, f16 m, u8 qh[4], u8 qs[16]; w = d * q + m.
  [GgmlType.Q5_1]: { blockSize: 32, blockBytes: 24 },
  // block_q4_K: f16 d, f16 dmin, u8 scales[12] (8 six-bit scales and mins), u8 qs[128];
  // a super-block of 8 sub-blocks of 32, w = d * scale * q - dmin * min.
  [GgmlType.Q4_K]: { blockSize: 256, blockBytes: 144 },
  // block_q6_K: u8 ql[128] (low 4 bits), u8 qh[64] (high 2 bits), i8 scales[16], f16 d;
  // 16 sub-blocks of 16, w = d * scale * (q - 32).
  [GgmlType.Q6_K]: { blockSize: 256, blockBytes: 210 },
};

export const ggmlTypeName = (type: number): string => GgmlType[type] ?? `type ${type}`;

const decodableNames = Object.keys(DECODABLE_TYPES).map((t) => ggmlTypeName(Number(t)));
/** "F32, F16, Q4_0, ... and BF16": the types we decode, for error messages. */
export const DECODABLE_TYPE_NAMES = `${decodableNames.slice(0, -1).join(', ')} and ${decodableNames.at(-1)}`;

export interface GgufTensorInfo {
  name: string;
  /** ggml ne order: innermost first. */
  dims: number[];
  type: GgmlType;
  /** Offset of the data from the start of the data section. */
  offset: number;
}

export interface GgufFile {
  version: number;
  kv: GgufKv[];
  tensors: GgufTensorInfo[];
  alignment: number;
  /** Absolute byte offset of the data section in the file. */
  dataOffset: number;
  /** File size in bytes. */
  size: number;
}

export const elementCount = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);
