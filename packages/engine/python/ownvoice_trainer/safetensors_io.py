"""Minimal safetensors read/write (the format: u64 header length, JSON header, raw bytes),
so the trainer needs nothing beyond torch and numpy."""
import json
import struct

import numpy as np
import torch

# I64: position ids some BERT files carry (the sentence-embedding model's); read, never used.
_DTYPES = {"F32": (np.float32, torch.float32), "F16": (np.float16, torch.float16), "I64": (np.int64, torch.int64)}


def save(path, tensors, metadata=None):
    header, offset, blobs = {}, 0, []
    for name, t in tensors.items():
        a = t.detach().to(torch.float32).contiguous().cpu().numpy()
        b = a.tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        offset += len(b)
        blobs.append(b)
    if metadata:
        header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)  # keep the data 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack_from("<Q", raw, 0)
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    out = {}
    for name, info in header.items():
        np_dtype, _ = _DTYPES[info["dtype"]]
        s, e = info["data_offsets"]
        a = np.frombuffer(raw[8 + n + s : 8 + n + e], dtype=np_dtype).reshape(info["shape"])
        out[name] = torch.from_numpy(a.astype(np.float32))
    return out, meta
