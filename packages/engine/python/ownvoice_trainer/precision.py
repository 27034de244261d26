"""precision: which arithmetic the matrix products run in, and what that asks of a packed row.

Training and decoding take bfloat16 products where the device runs them fast (bf16_is_faster)
or where a request asks; the weights, the optimiser and the sums stay float32. On the CPU,
bfloat16 products are slow for some row counts, so rows are padded to a multiple (row_multiple).
"""
import functools
import math
import time

import torch
import torch.nn.functional as F

from .model import autocast_dtype

# Rows of the CPU's bfloat16 matrix products are rounded up to a multiple of this many tokens.
# oneDNN's bfloat16 products on two threads (torch 1.13, Intel AMX) took 5 to 10 times as long for
# some row counts, the same ones for every projection's shape: 636, 732, 744, 793, 928 and 992 among
# them, none a multiple of 64 from 64 to 1,024. A 636-token example's pass took 10.1 s, 2.9 s padded
# to 640; 29 examples of a Voice's epoch 130 s, 115 s padded. A pad costs 32 tokens a row on average.
CPU_BF16_ROW_MULTIPLE = 64


def row_multiple(device, bf16=None):
    """What a packed row's tokens (and the rows the logits are taken for) are rounded up to: only
    where the products run in bfloat16 on the CPU (bf16, or by default whether the CPU's autocast
    is on now); 1 elsewhere, rows as they are."""
    bf16 = autocast_dtype(device) == torch.bfloat16 if bf16 is None else bf16
    return CPU_BF16_ROW_MULTIPLE if device.type == "cpu" and bf16 else 1


# The CPU features that run bfloat16 products in hardware, as Linux names them in /proc/cpuinfo.
CPU_BF16_FLAGS = frozenset({"avx512_bf16", "amx_bf16"})


def cpu_flags(cpuinfo="/proc/cpuinfo"):
    """The CPU's feature flags, as Linux lists them; None where there is no such file to read."""
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        return None
    return None


def _bf16_timed_faster():
    """Whether a projection's product ran 1.5 times as fast in bfloat16 as in float32, best of five."""
    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(512, 576, generator=g), torch.randn(1536, 576, generator=g)  # a projection's shape

    def seconds(dtype):
        a, b = x.to(dtype), w.to(dtype)
        F.linear(a, b)  # warm-up
        best = math.inf
        for _ in range(5):
            start = time.perf_counter()
            F.linear(a, b)
            best = min(best, time.perf_counter() - start)
        return best

    return seconds(torch.bfloat16) * 1.5 < seconds(torch.float32)


@functools.lru_cache(maxsize=None)  # once a process: a serving trainer's commands agree on it
def bf16_is_faster(device):
    """Whether bfloat16 matrix products run well here: GPUs that support them, CPUs that have them in
    hardware (AVX-512 BF16 or AMX; elsewhere they are emulated and slower). Read from the CPU's
    flags where Linux lists them, not timed: a timing on a busy machine (CI's, or a server's while
    it converts) came out either way, 1 in 5 runs False on a quiet AVX-512 BF16 machine, so one run
    trained in float32 at twice the time of the next, on other paraphrases. Timed where no flags
    can be read."""
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    if device.type != "cpu":
        return False
    flags = cpu_flags()
    return bool(flags & CPU_BF16_FLAGS) if flags is not None else _bf16_timed_faster()


def takes_bf16(device, mixed_precision):
    """Whether products run in bfloat16 for a mixed_precision setting: true, false, or "auto"
    (where the device runs them fast, bf16_is_faster)."""
    return mixed_precision is True or (mixed_precision == "auto" and bf16_is_faster(device))


def generation_bf16(device, mixed_precision=None):
    """Whether generation's products run in bfloat16: as training's (takes_bf16); when None,
    "auto" on a GPU and float32 on a CPU."""
    if mixed_precision is None:
        mixed_precision = "auto" if device.type == "cuda" else False
    return takes_bf16(device, mixed_precision)
