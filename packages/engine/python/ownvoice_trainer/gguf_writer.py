"""Writes GGUF v3 files: key/value metadata and F32/F16 tensors, the layout gguf_reader.py reads.

Layout: magic "GGUF", version 3, tensor count, kv count (all little-endian u64 counts), the kv
pairs, the tensor table (name, dims innermost-first, ggml type, offset into the data), padding
to `general.alignment` (32), then each tensor's bytes, each starting on an aligned offset. A
numpy array of shape (out, in) is stored with ne = [in, out]: the row-major bytes are the same.
"""
import struct

import numpy as np

GGUF_MAGIC = 0x46554747
ALIGNMENT = 32

# Metadata value types (gguf_reader.py decodes the same ids).
U32, I32, F32, BOOL, STRING, ARRAY = 4, 5, 6, 7, 8, 9
# Tensor types: ggml's ids.
GGML_F32, GGML_F16 = 0, 1


def _string(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def _value(kind, v):
    if kind == STRING:
        return _string(v)
    if kind == U32:
        return struct.pack("<I", v)
    if kind == I32:
        return struct.pack("<i", v)
    if kind == F32:
        return struct.pack("<f", v)
    if kind == BOOL:
        return struct.pack("<?", v)
    raise ValueError(f"metadata type {kind} is not written here")


def _kv(key, v):
    """A kv pair; the type follows the Python value (an int is u32, a list an array of its first item's type)."""
    if isinstance(v, list):
        elem = _kind(v[0]) if v else STRING
        return _string(key) + struct.pack("<IIQ", ARRAY, elem, len(v)) + b"".join(_value(elem, x) for x in v)
    kind = _kind(v)
    return _string(key) + struct.pack("<I", kind) + _value(kind, v)


def _kind(v):
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return U32 if v >= 0 else I32
    if isinstance(v, float):
        return F32
    if isinstance(v, str):
        return STRING
    raise ValueError(f"cannot write {type(v).__name__} as GGUF metadata")


def write_gguf(path, kv, tensors):
    """kv: {key: value}; tensors: {name: numpy float32 or float16 array}, written in order."""
    kv = {"general.alignment": ALIGNMENT, **kv}
    table, blobs, offset = [], [], 0
    for name, a in tensors.items():
        if a.dtype not in (np.float32, np.float16):
            raise ValueError(f"tensor {name} is {a.dtype}; only float32 and float16 are written")
        ggml_type = GGML_F32 if a.dtype == np.float32 else GGML_F16
        dims = list(reversed(a.shape))
        table.append(_string(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
                     + struct.pack("<IQ", ggml_type, offset))
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        pad = (-len(data)) % ALIGNMENT
        blobs.append(data + b"\0" * pad)
        offset += len(data) + pad
    head = struct.pack("<IIQQ", GGUF_MAGIC, 3, len(tensors), len(kv)) + b"".join(_kv(k, v) for k, v in kv.items())
    head += b"".join(table)
    head += b"\0" * ((-len(head)) % ALIGNMENT)
    with open(path, "wb") as f:
        f.write(head)
        for blob in blobs:
            f.write(blob)
