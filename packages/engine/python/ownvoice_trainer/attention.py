"""Causal self-attention over packed sequences, two ways that give the same result:

- `scaled_dot_product_attention` (PyTorch >= 2.0): one fused call for the whole packed row, with
  a block-diagonal causal mask so a position attends only to earlier positions of its own
  sequence. On a GPU this is the fast path (no (T, T) score matrix per segment in Python).
- the hand-written loop (any PyTorch, e.g. Debian's 1.13, which has no SDPA): one causal softmax
  per segment, concatenated.

Shapes: q, k, v (B, H, T, D) -> (B, H, T, D). Segments are (start, end) spans covering 0..T.
`attention-check` compares the two (with PyTorch's documented reference math standing in for
SDPA where torch lacks it, so the mask itself is checked everywhere).
"""
import math
import os

import torch
import torch.nn.functional as F

SDPA = getattr(F, "scaled_dot_product_attention", None)


def causal_attention(q, k, v):
    """q, k, v (B, H, T, D) -> (B, H, T, D), each position attending to itself and those before."""
    T = q.shape[2]
    att = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])  # (B, H, T, T)
    mask = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    att = att.masked_fill(~mask, float("-inf")).softmax(-1)
    return att @ v


def segment_mask(segments, T, device):
    """(T, T) bool, True where query i may attend key j: j <= i and both in the same segment."""
    seg = torch.empty(T, dtype=torch.long, device=device)  # (T,) segment index of each position
    for i, (s, e) in enumerate(segments):
        seg[s:e] = i
    return (seg[:, None] == seg[None, :]) & torch.ones(T, T, dtype=torch.bool, device=device).tril()


def reference_sdpa(query, key, value, attn_mask=None, is_causal=False):
    """The reference implementation in PyTorch's documentation of
    torch.nn.functional.scaled_dot_product_attention (dropout and scale arguments left out)."""
    L, S = query.size(-2), key.size(-2)
    bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        bias.masked_fill_(torch.ones(L, S, dtype=torch.bool, device=query.device).tril().logical_not(), float("-inf"))
    if attn_mask is not None:
        bias.masked_fill_(attn_mask.logical_not(), float("-inf"))
    weight = (query @ key.transpose(-2, -1)) / math.sqrt(query.size(-1)) + bias
    return weight.softmax(-1) @ value


def use_sdpa():
    """SDPA where torch has it, unless OWNVOICE_ATTENTION=manual asks for the hand-written loop."""
    return SDPA is not None and os.environ.get("OWNVOICE_ATTENTION") != "manual"


def attention(q, k, v, segments=None, fused="auto"):
    """Causal attention, within each segment when given. `fused`: the SDPA function to use, None
    for the hand-written loop, "auto" for SDPA where torch has it (use_sdpa)."""
    if fused == "auto":
        fused = SDPA if use_sdpa() else None
    if fused is None:
        if segments is None:
            return causal_attention(q, k, v)
        # sum(T_i^2) work, nothing crosses a boundary
        return torch.cat([causal_attention(q[:, :, s:e], k[:, :, s:e], v[:, :, s:e]) for s, e in segments], dim=2)
    if segments is None or len(segments) == 1:
        return fused(q, k, v, is_causal=True)
    return fused(q, k, v, attn_mask=segment_mask(segments, q.shape[2], q.device))


def run_attention_check(request, emit):
    """request: device?, dtype? ("float32"/"bfloat16") -> done with the largest difference between
    the fused path (torch's SDPA, else the documented reference) and the hand-written loop."""
    device = torch.device(request.get("device") or ("cuda" if torch.cuda.is_available() else "cpu"))
    dtype = getattr(torch, request.get("dtype", "float32"))
    g = torch.Generator().manual_seed(0)
    segments = [(0, 5), (5, 6), (6, 23), (23, 40)]
    q, k, v = (torch.randn(2, 3, 40, 16, generator=g).to(device, dtype) for _ in range(3))  # (B, H, T, D)
    manual = attention(q, k, v, segments, fused=None)
    fused = attention(q, k, v, segments, fused=SDPA or reference_sdpa)
    whole = attention(q, k, v, [(0, 40)], fused=SDPA or reference_sdpa)
    emit("done", fused="torch" if SDPA else "reference", device=str(device), dtype=str(dtype),
         max_diff=float((fused.float() - manual.float()).abs().max()),
         one_segment_diff=float((whole.float() - causal_attention(q, k, v).float()).abs().max()))
